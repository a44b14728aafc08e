import ArgumentParser
import Foundation
import GrandfatherCore
import GrandfatherEngine

// For `stdout`'s error mark, read once the command is done: C's streams predate Swift's
// concurrency checking (on Linux, `stdout` is declared in SwiftGlibc, under Foundation).
#if canImport(SwiftGlibc)
    @preconcurrency import SwiftGlibc
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

/// The `grandfather` command: subcommands, and the one place exit codes are decided.
@main
struct GrandfatherCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grandfather",
        abstract: "Audit an app's customers after a change from paid to free with in-app purchases.",
        version: ToolVersion.current,
        subcommands: [
            AuditCommand.self, ValidateCommand.self, CompareCommand.self, ExplainCommand.self, FlagsCommand.self,
            NormalizeCommand.self, SQLCommand.self, LayoutCommand.self, MapCommand.self,
        ]
    )

    /// Parses, runs, and exits: 0 success, 1 run failed, 2 usage or policy error, 3 data quality.
    static func main() {
        // Outputs are never writable by group or others, whatever umask cron gives us.
        umask(umask(0) | 0o022)
        // Past a file-size limit, a write must fail with EFBIG and a message, not kill us.
        signal(SIGXFSZ, SIG_IGN)
        MallocArenas.limit()
        // Gzip inputs are inflated into unlinked temporary files under TMPDIR (or /tmp).
        TemporaryFiles.useDirectory(ProcessInfo.processInfo.environment["TMPDIR"] ?? "")
        var code: Int32
        var format = LogFormat.human
        do {
            try Arguments.requireUTF8()
            var command = try parseAsRoot()
            if let logging = command as? LoggingCommand {
                format = logging.logFormat
                EventLog.current = EventLog.bootstrap(format, verbose: logging.verbose)
            }
            try command.run()
            code = 0
        } catch let error as GrandfatherError {
            EventLog.failure(error.description, exitCode: error.exitCode, format: format)
            code = error.exitCode
        } catch {
            let exit = exitCode(for: error)
            if exit == .success {
                print(fullMessage(for: error))
                code = 0
            } else {
                var line = message(for: error).split(separator: "\n").joined(separator: " ")
                if let hint = Arguments.negativeValueHint() { line += "; " + hint }
                EventLog.failure("error: " + line, exitCode: 2, format: format)
                code = 2
            }
        }
        // Whatever a command printed, into a full disk or a closed pipe, is a failed run, not a
        // success: stated here once for every command. `fflush(nil)` flushes every stream,
        // standard output the one with anything left; a write that failed before the end (an
        // output larger than the buffer) left stdout's error mark, and errno as it failed.
        let failedBefore = ferror(stdout) != 0
        if fflush(nil) != 0 || failedBefore {
            let reason = errno == 0 ? "write error" : String(cString: strerror(errno))
            EventLog.failure("error: cannot write to standard output: \(reason)", exitCode: 1, format: format)
            if code == 0 { code = 1 }
        }
        Foundation.exit(code)
    }
}

/// The command line as the kernel handed it over.
enum Arguments {
    /// Options whose value may start with `-` (a negative epoch-millisecond instant).
    static let signedOptions = ["--as-of"]

    /// What to write instead when an option above was followed by a negative number, which
    /// the parser takes for an option of its own: `--as-of=-1700000000000`.
    static func negativeValueHint() -> String? {
        let arguments = CommandLine.arguments
        for (index, argument) in arguments.enumerated().dropLast() where signedOptions.contains(argument) {
            let value = arguments[index + 1]
            guard value.count > 1, value.hasPrefix("-"), value.dropFirst().first?.isNumber == true else { continue }
            return "a value that starts with '-' goes after '=': \(argument)=\(value)"
        }
        return nil
    }

    /// Refuses an argument that is not valid UTF-8. Swift decodes arguments into strings, and
    /// an undecodable byte would become U+FFFD: a file that exists would be "not found", and
    /// `--out` would silently name another folder. Every report names files as text, so such
    /// a name is refused (exit 2) rather than changed.
    static func requireUTF8() throws(GrandfatherError) {
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index], String(validatingCString: argument) == nil else {
                continue
            }
            let shown = String(cString: argument)  // U+FFFD where it does not decode
            throw .usage(
                "argument \(index) ('\(shown)') is not valid UTF-8; file and folder names must be UTF-8 (rename the file, or give a symbolic link with a UTF-8 name)"
            )
        }
    }
}

/// Writes whole lines to standard error.
enum Stderr {
    static func line(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
