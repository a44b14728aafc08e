import Foundation
import GrandfatherEngine

/// The engine's file operations (`FileSystem`, `TemporaryFiles`), failing as the run fails.
enum Disk {
    /// `FileSystem.makeDirectories`: a folder and any missing parents.
    static func makeDirectories(_ path: String) throws(GrandfatherError) {
        try EngineEdge.converting { () throws(EngineError) in try FileSystem.makeDirectories(path) }
    }

    /// `FileSystem.makeFreshDirectory`: a new folder, refused if anything has the name.
    static func makeFreshDirectory(_ path: String, mode: mode_t = 0o755) throws(GrandfatherError) {
        try EngineEdge.converting { () throws(EngineError) in try FileSystem.makeFreshDirectory(path, mode: mode) }
    }

    /// `FileSystem.writeNewFile`: bytes into a new file, flushed.
    static func writeNewFile(_ path: String, _ bytes: [UInt8]) throws(GrandfatherError) {
        try EngineEdge.converting { () throws(EngineError) in try FileSystem.writeNewFile(path, bytes) }
    }

    /// `FileSystem.writeNewFile`: a buffer's bytes into a new file, flushed.
    static func writeNewFile(_ path: String, _ bytes: ByteBuffer) throws(GrandfatherError) {
        try EngineEdge.converting { () throws(EngineError) in try FileSystem.writeNewFile(path, bytes) }
    }

    /// `FileSystem.writeNewFile`: a new file that `write` fills (returning the `errno` of a
    /// failed write), flushed.
    static func writeNewFile(_ path: String, _ write: (Int32) -> Int32?) throws(GrandfatherError) {
        try EngineEdge.converting { () throws(EngineError) in try FileSystem.writeNewFile(path, write) }
    }

    /// `FileSystem.sync`: a file's contents or a folder's entries on disk.
    static func sync(_ path: String) throws(GrandfatherError) {
        try EngineEdge.converting { () throws(EngineError) in try FileSystem.sync(path) }
    }

    /// `FileSystem.rename`.
    static func rename(_ from: String, _ to: String) throws(GrandfatherError) {
        try EngineEdge.converting { () throws(EngineError) in try FileSystem.rename(from, to) }
    }

    /// `FileSystem.remove`: a file or folder tree; missing is fine.
    static func remove(_ path: String) throws(GrandfatherError) {
        try EngineEdge.converting { () throws(EngineError) in try FileSystem.remove(path) }
    }

    /// `TemporaryFiles.anonymousFile`: a new nameless file in the temporary folder, its
    /// descriptor.
    static func anonymousFile(purpose: String, for path: String) throws(GrandfatherError) -> Int32 {
        try EngineEdge.converting { () throws(EngineError) in
            try TemporaryFiles.anonymousFile(purpose: purpose, for: path)
        }
    }
}
