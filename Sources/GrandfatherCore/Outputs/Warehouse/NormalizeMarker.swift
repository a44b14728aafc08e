import Foundation
import GrandfatherEngine

/// The file by which `grandfather normalize` knows a folder as its own:
/// `.grandfather-normalize`, holding `{"token":"…","tool":"grandfather normalize"}` (the
/// token is the writing run's, random).
///
/// `manifest.json` and `schema.sql` are names any project may hold, so they prove nothing: a
/// folder is replaced only when it holds this file (docs/Warehouse.md, "When one machine is not enough").
/// It is written last, once every table is on disk, so a folder that holds it is also whole.
/// The name is hidden, so `DIR/*.csv` and the warehouse's loaders never see it.
enum NormalizeMarker {
    static let fileName = ".grandfather-normalize"
    static let tool = "grandfather normalize"
    /// A real marker is under 100 bytes; anything past this is not one.
    static let maximumSize = 4096

    struct Contents: Codable, Equatable {
        var tool: String
        var token: String
    }

    /// Writes the marker into `folder`, and flushes the folder first and after, so that no
    /// crash leaves a marker in a folder whose tables did not reach the disk.
    static func write(into folder: String) throws(GrandfatherError) {
        try Disk.sync(folder)
        let token = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let bytes: [UInt8]
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            bytes = Array(try encoder.encode(Contents(tool: tool, token: token))) + [UInt8(ascii: "\n")]
        } catch {
            throw .internal("cannot encode \(fileName): \(error)")
        }
        try Disk.writeNewFile(FileSystem.join(folder, fileName), bytes)
        try Disk.sync(folder)
    }

    /// Whether `folder` holds a marker this command wrote: a regular file (not a link), small,
    /// whose JSON names the tool and carries a token.
    static func isPresent(in folder: String) -> Bool {
        let path = FileSystem.join(folder, fileName)
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size <= maximumSize,
            let data = FileManager.default.contents(atPath: path),
            let contents = try? JSONDecoder().decode(Contents.self, from: data)
        else { return false }
        return contents.tool == tool && !contents.token.isEmpty
    }
}
