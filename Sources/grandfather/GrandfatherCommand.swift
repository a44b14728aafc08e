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
        subcommands: [AuditCommand.self, FlagsCommand.self]
    )

    /// Parses, runs, and exits: 0 success, 1 run failed, 2 usage or policy error, 3 data quality.
    static func main() {
        let code: Int32
        do {
            var command = try parseAsRoot()
            try command.run()
            code = 0
        } catch let error as GrandfatherError {
            Stderr.line("grandfather: " + error.description)
            code = error.exitCode
        } catch {
            let exit = exitCode(for: error)
            if exit == .success {
                print(fullMessage(for: error))
                code = 0
            } else {
                Stderr.line("grandfather: error: " + message(for: error).split(separator: "\n").joined(separator: " "))
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
