import Foundation

/// A `grandfather` run started without waiting for it, for tests that race, pause or kill runs.
struct BackgroundRun {
    let process: Process
    let stderrPath: String

    var pid: Int32 { process.processIdentifier }

    /// Sends SIGKILL and reaps the process.
    func kill() {
        Foundation.kill(pid, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits for the process to end; its exit status, or `nil` if it outlived `seconds`.
    func wait(seconds: Double) -> Int32? {
        guard Poll.until(seconds: seconds, { !process.isRunning }) else { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }

    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
}

extension CLI {
    /// Starts `grandfather` in the test folder; output goes to files, never to a pipe that
    /// could fill while nobody reads it.
    func start(_ arguments: [String], environment: [String: String] = [:]) throws -> BackgroundRun {
        let process = process(arguments, environment: environment)
        let name = UUID().uuidString
        let stderrPath = path("\(name).stderr")
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        _ = FileManager.default.createFile(atPath: path("\(name).stdout"), contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: path("\(name).stdout"))
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return BackgroundRun(process: process, stderrPath: stderrPath)
    }

    /// The lock file's text: the holder's description.
    func lockHolder(_ out: String = "out") -> String {
        (try? String(contentsOfFile: path(out + "/.lock"), encoding: .utf8)) ?? ""
    }
}

enum Poll {
    /// Checks `condition` every 10 ms until it holds (true) or `seconds` pass (false).
    static func until(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }
}
