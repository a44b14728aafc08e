import Foundation
import GrandfatherEngine

/// What the next run found of a killed `normalize` and put right, for its log.
public struct NormalizeRecovery: Sendable, Equatable, CustomStringConvertible {
    /// The folder the killed run was writing.
    public var out: String
    /// The folder moved back to `out`: the run died between its two renames, with `out` missing.
    public var restored: String?
    /// The hidden folders removed.
    public var removed: [String]

    public var description: String {
        var done = restored.map { ["moved \($0) back to \(out)"] } ?? []
        if !removed.isEmpty { done.append("removed " + removed.joined(separator: " and ")) }
        return "a killed normalize into \(out) left its folders behind: " + done.joined(separator: "; ")
    }
}

// The replace, in the order a kill can cut it (each point a `KillPoint` of the tests):
//   1. `.OUT.normalize-building` made (mode 0700 while OUT exists), the tables written (mid-building),
//      flushed, the marker last (after-building);
//   2. OUT renamed to `.OUT.normalize-replaced` (after-first-rename);
//   3. the new folder renamed to OUT (after-second-rename), the parent flushed (before-removing-old);
//   4. the old folder removed.
// A kill in 1 leaves OUT as it was and a building folder; in 2, OUT missing and both folders
// whole; in 3 or 4, the new OUT and what is left of the old. `recover` undoes each.
extension NormalizeTarget {
    /// Puts right what a killed run left (the caller holds the lock, so none is running):
    /// when OUT is missing, the folder it was replacing is moved back to it; then the hidden
    /// building and replaced folders are removed.
    ///
    /// Between the two renames both folders are whole and marked. The old one comes back
    /// because the killed run never finished: as after a run that fails, OUT is the folder from
    /// before it, and a run that now fails too (bad input, exit 3) leaves it so. Only the two
    /// fixed names are touched; the replaced folder is removed without asking for its marker,
    /// which a kill in the middle of removing it may already have taken.
    /// - Returns: what was done, or `nil` when nothing was left.
    func recover(_ lock: RunLock) throws(GrandfatherError) -> NormalizeRecovery? {
        var recovery = NormalizeRecovery(out: out, restored: nil, removed: [])
        if !FileSystem.exists(out), FileSystem.exists(replaced) {
            try Disk.rename(replaced, out)
            recovery.restored = replaced
        }
        for leftover in [building, replaced] where FileSystem.exists(leftover) {
            try Disk.remove(leftover)
            recovery.removed.append(leftover)
        }
        guard recovery.restored != nil || !recovery.removed.isEmpty else { return nil }
        try Disk.sync(parent)
        return recovery
    }

    /// Makes the hidden folder the new one is written in. While OUT exists, only its owner
    /// may enter it until `replace` gives it OUT's mode, so a 0700 folder's data is never
    /// readable by others, not even half-written.
    func makeBuilding() throws(GrandfatherError) -> String {
        try Disk.makeFreshDirectory(building, mode: FileSystem.exists(out) ? 0o700 : 0o755)
        return building
    }

    /// Moves the whole, marked folder `building` to OUT, replacing the folder there, if any,
    /// with the old folder's mode kept (less group and other write, which no output has).
    func replace(with building: String, hooks: TestHooks) throws(GrandfatherError) {
        guard FileSystem.exists(out) else {
            try Disk.rename(building, out)
            try Disk.sync(parent)
            return
        }
        var status = stat()
        guard stat(out, &status) == 0, chmod(building, status.st_mode & 0o755) == 0 else {
            throw .io(path: building, message: "cannot give it the mode of \(out): \(FileSystem.describeErrno())")
        }
        try Disk.rename(out, replaced)
        hooks.reach(.afterFirstRename)
        do throws(GrandfatherError) {
            try Disk.rename(building, out)
        } catch {
            try? Disk.rename(replaced, out)
            throw error
        }
        hooks.reach(.afterSecondRename)
        try Disk.sync(parent)
        hooks.reach(.beforeRemovingOld)
        // The new folder is in place: the run has succeeded. What cannot be removed now is the
        // next run's to remove (`recover`), or to report.
        try? Disk.remove(replaced)
    }
}
