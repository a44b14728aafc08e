import ArgumentParser
import Foundation
import GrandfatherCore

/// The `grandfather` command: subcommands, and the one place exit codes are decided.
@main
struct GrandfatherCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grandfather",
        abstract: "Audit an app's customers after a change from paid to free with in-app purchases.",
        version: ToolVersion.current,
        subcommands: [
            AuditCommand.self, ValidateCommand.self, CompareCommand.self, ExplainCommand.self, FlagsCommand.self,
        ]
    )

    /// Parses, runs, and exits: 0 success, 1 run failed, 2 usage or policy error, 3 data quality.
    static func main() {
        // Outputs are never writable by group or others, whatever umask cron gives us.
        umask(umask(0) | 0o022)
        // Past a file-size limit, a write must fail with EFBIG and a message, not kill us.
        signal(SIGXFSZ, SIG_IGN)
        MallocArenas.limit()
        let code: Int32
        var format = LogFormat.human
        do {
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
                let line = message(for: error).split(separator: "\n").joined(separator: " ")
                EventLog.failure("error: " + line, exitCode: 2, format: format)
                code = 2
            }
        }
        Foundation.exit(code)
    }
}

/// Writes whole lines to standard error.
enum Stderr {
    static func line(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
