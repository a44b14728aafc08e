import Foundation
import GrandfatherEngine

/// Where `grandfather normalize` writes: `--out`, split into its parent folder and its name,
/// and the hidden names the run keeps beside it in the parent (docs/Warehouse.md, "When one machine is
/// not enough"):
///
/// - `.OUT.normalize.lock`: the lock (`RunLock`), held from before anything is changed to the
///   end, so two runs into one folder never overlap; never removed, so every run locks one inode.
/// - `.OUT.normalize-building`: the new folder, its tables flushed, then its marker.
/// - `.OUT.normalize-replaced`: the folder being replaced, moved aside between the two renames
///   that put the new one in its place.
///
/// The names are fixed, not random: under the lock one run at a time uses them, so whatever a
/// killed run left is found by name and put right by the next (`recover`).
public struct NormalizeTarget: Sendable {
    /// The folder to write, as given.
    public let out: String
    let parent: String
    let name: String

    /// Splits `out`; refuses, before anything is read or made, a name that is no folder's own
    /// (``, `.`, `..`, `/`): nothing could be renamed to it, and it would fail only at the end.
    public init(out: String) throws(GrandfatherError) {
        // Split by hand: Foundation's `deletingLastPathComponent` traps on a one-letter name.
        var trimmed = Substring(out)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let slash = trimmed.lastIndex(of: "/")
        let name = slash.map { String(trimmed[trimmed.index(after: $0)...]) } ?? String(trimmed)
        guard !["", ".", ".."].contains(name) else {
            throw .usage("--out '\(out)' names no folder of its own; give the folder to write, as --out warehouse")
        }
        self.out = out
        self.name = name
        parent = slash.map { $0 == trimmed.startIndex ? "/" : String(trimmed[..<$0]) } ?? "."
    }

    var building: String { hidden("normalize-building") }
    var replaced: String { hidden("normalize-replaced") }

    /// `.OUT.tag` in OUT's parent (no `./` before it when that is the working folder, for
    /// messages that name it as the user would).
    private func hidden(_ tag: String) -> String {
        parent == "." ? ".\(name).\(tag)" : FileSystem.join(parent, ".\(name).\(tag)")
    }

    /// Takes the lock on `.OUT.normalize.lock`, creating OUT's parent when missing.
    ///
    /// - Parameters:
    ///   - wait: seconds to wait for a run holding it; 0 gives up at once.
    ///   - startedAt: this run's start, written for a run that finds the lock taken.
    /// - Throws: `GrandfatherError.io` naming the holder when the lock stays taken.
    public func lock(wait: Double, startedAt: String) throws(GrandfatherError) -> RunLock {
        try Disk.makeDirectories(parent)
        return try RunLock.acquire(file: hidden("normalize.lock"), wait: wait, startedAt: startedAt)
    }

    /// Refuses, with nothing touched, an OUT that may not be replaced: anything but an absent
    /// name, an empty folder, or a folder that holds the marker (`NormalizeMarker`). The
    /// command asks before reading any input; the run asks again under the lock.
    public func checkReplaceable() throws(GrandfatherError) {
        guard FileSystem.exists(out) else { return }
        guard FileSystem.isDirectory(out), !FileSystem.isSymbolicLink(out) else {
            throw .usage("--out \(out) exists and is not a folder")
        }
        // A folder that cannot be listed is not taken for empty.
        let names = try? FileManager.default.contentsOfDirectory(atPath: out)
        guard names?.isEmpty == true || NormalizeMarker.isPresent(in: out) else {
            throw .usage(
                "--out \(out) is not replaced: it holds no \(NormalizeMarker.fileName), the file normalize writes "
                    + "in its folders (older versions did not); remove it yourself or choose another folder")
        }
    }
}
