import Foundation
import GrandfatherCore
import GrandfatherEngine

/// glibc's malloc keeps up to eight arenas per core, one per thread that allocates at once;
/// each holds on to its own freed fragments. Peak memory is a measured target: on the
/// 1M-customer benchmark (2 cores) the default let peak RSS wander from 494 to 515 MB from
/// run to run, two arenas from 493 to 511, one arena stayed at 490-494 with no loss of
/// speed measurable on this machine (threads allocate little once a run is under way, and
/// glibc's per-thread caches serve most small allocations without the arena's lock).
enum MallocArenas {
    /// Limits the arenas to one per two cores (at least one), where malloc is glibc's.
    static func limit() {
        MallocTuning.limitArenas(to: Int32(max(1, ProcessInfo.processInfo.activeProcessorCount / 2)))
    }
}
