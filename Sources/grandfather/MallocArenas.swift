import Foundation

/// glibc's malloc keeps up to eight arenas per core, one per thread that allocates at once;
/// each holds on to its own freed fragments. Peak memory is a measured target: on the
/// 1M-customer benchmark (2 cores) the default let peak RSS wander from 494 to 515 MB from
/// run to run, two arenas from 493 to 511, one arena stayed at 490-494 with no loss of
/// speed measurable on this machine (threads allocate little once a run is under way, and
/// glibc's per-thread caches serve most small allocations without the arena's lock).
enum MallocArenas {
    /// `M_ARENA_MAX` of `<malloc.h>`.
    private static let arenaMaximum: Int32 = -8

    /// Limits the arenas to one per two cores (at least one). `mallopt` lives in `<malloc.h>`,
    /// which Swift's Glibc module does not import, so it is looked up by name; where it is
    /// missing (not glibc), nothing changes.
    static func limit() {
        #if os(Linux)
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            _ = mallopt(arenaMaximum, Int32(max(1, ProcessInfo.processInfo.activeProcessorCount / 2)))
        #endif
    }
}
