import Foundation

/// glibc's malloc keeps up to eight arenas per core, one per thread that allocates at once;
/// each holds on to its own freed fragments. Peak memory is a measured target, and a third
/// thread (customer files are read beside the transaction files) kept about 20 MB more alive
/// on the 1M-customer benchmark; one arena per core gives it back at no cost in speed.
enum MallocArenas {
    /// `M_ARENA_MAX` of `<malloc.h>`.
    private static let arenaMaximum: Int32 = -8

    /// Limits the arenas to one per core (at least two). `mallopt` lives in `<malloc.h>`,
    /// which Swift's Glibc module does not import, so it is looked up by name; where it is
    /// missing (not glibc), nothing changes.
    static func limitToCores() {
        #if os(Linux)
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            _ = mallopt(arenaMaximum, Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)))
        #endif
    }
}
