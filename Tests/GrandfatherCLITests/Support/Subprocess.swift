import Foundation

/// Runs a program to its end, as the tests run the scripts, the shell and Chromium: its exit
/// status and what it wrote on standard output (standard error is dropped, standard input empty).
enum Subprocess {
    static func run(
        _ executable: String, _ arguments: [String], in folder: URL? = nil, environment: [String: String]? = nil
    ) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        if let environment { process.environment = environment }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
