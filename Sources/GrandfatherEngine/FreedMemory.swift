/// Memory a stage has freed, given back to the system between stages.
///
/// glibc keeps freed heap memory for reuse, and memory freed in many pieces (per-range arrays
/// grown by doubling, on several threads' arenas) stays resident until something reuses it.
/// A stage whose scratch is gone while the next stage's tables are still to grow returns it
/// here, so that the two do not add up to the run's peak.
public enum FreedMemory {
    /// Below this a trim is not worth its cost: `malloc_trim` walks every free page of every
    /// arena and advises the kernel of each, which in a process of many threads sends each
    /// core a TLB shootdown. Called for every small input, as a test suite of many small audits
    /// does, it is what that process spends its time on. A ledger shard at a million customers
    /// frees about 9 MB, and is still given back.
    static let worthGivingBack = 1 << 20

    /// Gives the free heap back when `bytes` were just freed and that is worth it.
    public static func giveBack(freed bytes: Int) {
        guard bytes >= worthGivingBack else { return }
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
