import Foundation

/// glibc's `mallopt`, for the command's allocator setting (its `MallocArenas` says why).
public enum MallocTuning {
    /// `M_ARENA_MAX` of `<malloc.h>`.
    private static let arenaMaximum: Int32 = -8

    /// Limits glibc's malloc to `count` arenas. `mallopt` lives in `<malloc.h>`, which Swift's
    /// Glibc module does not import, so it is looked up by name; where it is missing (not
    /// glibc), nothing changes.
    public static func limitArenas(to count: Int32) {
        #if os(Linux)
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            _ = mallopt(arenaMaximum, count)
        #endif
    }
}
