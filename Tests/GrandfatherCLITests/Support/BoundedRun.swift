import Foundation

extension CLI {
    /// What a bounded run of the binary gave, with what it cost.
    struct BoundedResult {
        /// The exit code; 128 + the signal when the process was killed.
        var status: Int32
        var stdout: String
        var stderr: String
        /// The child's peak resident set size in MiB: the highest `VmHWM` seen while it ran.
        var peakMiB: Double
        var seconds: Double
        /// Whether the run outlived its time limit and was killed.
        var timedOut: Bool
    }

    /// Runs `grandfather` as `run(_:)` does, but killed after `limit` seconds so that a hang
    /// fails the test instead of stalling it, and with its peak memory measured. Standard
    /// output and error go to files in the test folder; standard input is empty.
    ///
    /// The peak is the child's own high-water mark, `VmHWM` in `/proc/PID/status`, sampled
    /// every few milliseconds until it exits (a high-water mark, so a brief spike is not
    /// missed, only growth in the last milliseconds of the run). `ru_maxrss` from `wait4` or
    /// `RUSAGE_CHILDREN` cannot serve: a child spawned from the test process carries the test
    /// process's own peak into it (the kernel keeps the larger of the old and new image's at
    /// `exec`), and `RUSAGE_CHILDREN` also counts other tests' children.
    func runBounded(_ arguments: [String], limit: Double = 60) throws -> BoundedResult {
        // The shell only moves into the test folder and becomes `grandfather` (same process).
        try spawnBounded(
            ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", folder.path, Self.executable.path] + arguments,
            environment: [:], limit: limit)
    }

    /// Runs a shell script in the test folder, with `$GRANDFATHER` naming the binary and
    /// `environment` added: for what arguments cannot say (bytes that are not UTF-8, a
    /// redirection to `/dev/full`, another user).
    func runBounded(script: String, environment: [String: String] = [:], limit: Double = 60) throws
        -> BoundedResult
    {
        var environment = environment
        environment["GRANDFATHER"] = Self.executable.path
        return try spawnBounded(
            ["/bin/sh", "-c", "cd \"$0\" || exit 1\n" + script, folder.path], environment: environment, limit: limit)
    }

    private func spawnBounded(_ argv: [String], environment extra: [String: String], limit: Double) throws
        -> BoundedResult
    {
        let outPath = path(".stdout-\(UUID().uuidString)")
        let errPath = path(".stderr-\(UUID().uuidString)")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }.map { "\($0.key)=\($0.value)" }
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let clock = ContinuousClock()
        let start = clock.now
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, cArguments, cEnvironment)
        guard spawned == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "posix_spawn: \(spawned)"])
        }

        var status: Int32 = 0
        var timedOut = false
        var peakKiB = 0
        while true {
            peakKiB = max(peakKiB, Self.highWaterMarkKiB(pid) ?? 0)
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0, errno != EINTR {
                throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "waitpid: \(errno)"])
            }
            if !timedOut, clock.now - start > .seconds(limit) {
                timedOut = true
                kill(pid, SIGKILL)
            }
            usleep(2_000)
        }
        let elapsed = clock.now - start
        let signal = status & 0x7F
        let exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: outPath)
        try? FileManager.default.removeItem(atPath: errPath)
        return BoundedResult(
            status: exitStatus, stdout: stdout, stderr: stderr, peakMiB: Double(peakKiB) / 1024, seconds: seconds,
            timedOut: timedOut)
    }

    /// `VmHWM` of a running process, in KiB; `nil` once it has exited.
    static func highWaterMarkKiB(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return Int(line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces).dropLast(" kB".count))
    }

    /// Writes raw bytes into the test folder.
    @discardableResult
    func write(_ name: String, bytes: [UInt8]) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Writes a file made of `head`, `count` copies of `byte`, then `tail`, without holding it
    /// in memory at once (the 100 MB inputs).
    @discardableResult
    func write(_ name: String, head: String, repeating byte: UInt8, count: Int, tail: String = "") throws -> String {
        let url = folder.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.write(contentsOf: Data(head.utf8))
        let block = Data(repeating: byte, count: 1 << 20)
        var left = count
        while left > 0 {
            let size = min(left, block.count)
            try handle.write(contentsOf: size == block.count ? block : block.prefix(size))
            left -= size
        }
        try handle.write(contentsOf: Data(tail.utf8))
        return url.path
    }
}
