import Foundation
import Testing

/// Outputs are private to their owner, cannot be hijacked, and a run that cannot write
/// fails with one line and leaves the previous outputs as they were.
@Suite struct OutputSafetyTests {
    /// Runs a shell script in the test folder; `$GRANDFATHER` is the binary.
    private func shell(_ cli: CLI, _ script: String) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = cli.folder
        var environment = ProcessInfo.processInfo.environment
        environment["GRANDFATHER"] = CLI.executable.path
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLI.Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    private func quoted(_ arguments: [String]) -> String {
        arguments.map { "'\($0)'" }.joined(separator: " ")
    }

    @Test func outputsAreNotWritableByGroupOrOthersWhateverTheUmask() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        let result = try shell(cli, "umask 000; exec \"$GRANDFATHER\" \(quoted(arguments))")
        #expect(result.status == 0, "\(result.stderr)")
        let target = try #require(cli.latestTarget())
        var paths = ["out", "out/.lock", "out/runs", "out/" + target]
        paths += CrashTests.outputs.map { "out/" + target + "/" + $0 }
        for path in paths {
            let attributes = try FileManager.default.attributesOfItem(atPath: cli.path(path))
            let mode = try #require(attributes[.posixPermissions] as? Int)
            #expect(mode & 0o022 == 0, "\(path) has mode \(String(mode, radix: 8))")
        }
    }

    @Test func aFileSizeLimitFailsTheRunWithOneLineAndLeavesLatest() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        #expect(try cli.run(arguments).status == 0)
        let before = try cli.contents(of: "out/latest")
        let target = cli.latestTarget()
        try cli.write(
            "transactions.csv",
            SmallData.transactions
                + String(repeating: "t9,a-grandfathered,coins,consumable,2024-04-01T00:00:00Z,\n", count: 1))
        // 16 KiB: enough for the reports, not for the snapshot.
        let result = try shell(cli, "ulimit -f 16; exec \"$GRANDFATHER\" \(quoted(arguments))")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("too large") || result.stderr.contains("File too large"), "\(result.stderr)")
        #expect(cli.latestTarget() == target)
        #expect(try cli.contents(of: "out/latest") == before)
        #expect(!cli.runFolders().contains { $0.hasPrefix(".partial-") })
    }

    @Test func aFullDiskFailsTheRunWithOneLineAndLeavesLatest() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        // A 256 KiB file system of our own, in a private mount namespace (as root, or as a
        // user through a user namespace): the first run fits, then a filler takes the rest.
        let script = """
            set -e
            mkdir -p out
            mount -t tmpfs -o size=256k tmpfs out
            "$GRANDFATHER" \(quoted(arguments)) > /dev/null
            before=$(find out/latest/ -type f -exec sha256sum {} + | sort)
            target=$(readlink out/latest)
            dd if=/dev/zero of=out/filler bs=4k 2> /dev/null || true
            set +e
            "$GRANDFATHER" \(quoted(arguments)) > /dev/null 2> second.stderr
            echo "status=$?"
            set -e
            rm out/filler
            after=$(find out/latest/ -type f -exec sha256sum {} + | sort)
            [ "$before" = "$after" ] && echo "latest=same"
            [ "$target" = "$(readlink out/latest)" ] && echo "target=same"
            ls -a out/runs | grep -c '^\\.partial-' || true
            """
        try cli.write("disk-full.sh", script)
        let result = try shell(
            cli, "unshare --mount sh disk-full.sh 2>&1 || unshare --mount --map-root-user sh disk-full.sh 2>&1")
        let stderr = (try? String(contentsOfFile: cli.path("second.stderr"), encoding: .utf8)) ?? ""
        #expect(result.stdout.contains("status=1"), "\(result.stdout) \(stderr)")
        #expect(stderr.split(separator: "\n").count == 1)
        #expect(stderr.contains("No space left on device") || stderr.contains("full"), "\(stderr)")
        #expect(result.stdout.contains("latest=same"))
        #expect(result.stdout.contains("target=same"))
        #expect(result.stdout.hasSuffix("0\n"), "no staging folder is left: \(result.stdout)")
    }

    @Test func aReadOnlyOutputFolderFailsTheRunWithOneLine() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        #expect(try cli.run(arguments).status == 0)
        let before = try cli.contents(of: "out/latest")
        for path in ["", "/out", "/out/runs"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: cli.folder.path + path)
        }
        defer {
            for path in ["", "/out", "/out/runs"] {
                try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: cli.folder.path + path)
            }
        }
        // root ignores permissions; run as nobody then (the test folder stays readable).
        let prefix = getuid() == 0 ? "exec setpriv --reuid=65534 --regid=65534 --clear-groups " : "exec "
        let result = try shell(cli, prefix + "\"$GRANDFATHER\" \(quoted(arguments))")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("Permission denied"), "\(result.stderr)")
        #expect(try cli.contents(of: "out/latest") == before)
    }

    @Test func aSymbolicLinkInPlaceOfAStagingNameIsNeverFollowed() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        #expect(try cli.run(arguments).status == 0)
        // A link planted where a leftover staging folder would be: removed as a link, and
        // what it points to is untouched.
        try FileManager.default.createDirectory(atPath: cli.path("victim"), withIntermediateDirectories: true)
        try cli.write("victim/keep.txt", "mine")
        try FileManager.default.createSymbolicLink(
            atPath: cli.path("out/runs/.partial-20240101T000000.000Z-1-1"), withDestinationPath: "../../victim")
        try FileManager.default.createSymbolicLink(atPath: cli.path("out/.latest-1"), withDestinationPath: "victim")
        #expect(try cli.run(arguments).status == 0)
        #expect(try String(contentsOfFile: cli.path("victim/keep.txt"), encoding: .utf8) == "mine")
        #expect(!cli.runFolders().contains { $0.hasPrefix(".partial-") })
    }
}
