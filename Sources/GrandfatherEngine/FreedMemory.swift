/// Memory a stage has freed, given back to the system between stages.
///
/// glibc keeps freed heap memory for reuse, and memory freed in many pieces (per-range arrays
/// grown by doubling, on several threads' arenas) stays resident until something reuses it.
/// A stage whose scratch is gone while the next stage's tables are still to grow returns it
/// here, so that the two do not add up to the run's peak.
public enum FreedMemory {
    public static func giveBack() {
        #if os(Linux)
            _ = mallocTrim(0)
        #endif
    }
}

#if os(Linux)
    /// glibc's `malloc_trim` (malloc.h, which the Glibc module does not export): releases the
    /// free pages of every arena. Two plain integers, the same in C's convention and Swift's.
    @_silgen_name("malloc_trim")
    private func mallocTrim(_ pad: Int) -> Int32
#endif
