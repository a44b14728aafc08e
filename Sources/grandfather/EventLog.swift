import ArgumentParser
import Foundation
import Logging
import Synchronization

/// How the command reports what it does on stderr.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    /// One-liners for a person: warnings always, the rest with `--verbose`.
    case human
    /// One JSON object per event for log collectors: start, each stage, warnings, the result
    /// or the error. Every event is written, `--verbose` or not.
    case json
}

/// The events a run reports, through swift-log; the handler decides their shape.
struct EventLog: Sendable {
    let logger: Logger
    let format: LogFormat

    /// The process's log: set once by the entry point, before any command runs, then read.
    static var current: EventLog {
        get { installed.withLock { $0 } }
        set { installed.withLock { $0 = newValue } }
    }

    private static let installed = Mutex(EventLog(logger: Logger(label: "grandfather"), format: .human))

    /// Installs the handler for `format` (once per process) and returns the log.
    static func bootstrap(_ format: LogFormat, verbose: Bool) -> EventLog {
        LoggingSystem.bootstrap { label in
            switch format {
            case .human: HumanLogHandler(label: label)
            case .json: JSONLogHandler(label: label)
            }
        }
        var logger = Logger(label: "grandfather")
        logger.logLevel = format == .json || verbose ? .info : .warning
        return EventLog(logger: logger, format: format)
    }

    func event(_ name: String, _ message: String, _ metadata: Logger.Metadata = [:]) {
        var fields = metadata
        fields["event"] = .string(name)
        logger.info("\(message)", metadata: fields)
    }

    func warning(_ message: String, _ metadata: Logger.Metadata = [:]) {
        var fields = metadata
        fields["event"] = .string("warning")
        logger.warning("\(message)", metadata: fields)
    }

    /// The failure that ends the run: the one line a person reads, or a JSON `error` event.
    static func failure(_ line: String, exitCode: Int32, format: LogFormat) {
        switch format {
        case .human:
            Stderr.line("grandfather: " + TerminalText.safe(line))
        case .json:
            Stderr.line(
                JSONLogHandler.render(
                    level: .error, message: line,
                    metadata: ["event": .string("error"), "exit_code": .stringConvertible(Int(exitCode))]))
        }
    }
}

/// What both handlers keep: the metadata swift-log attaches to a logger.
protocol StderrLogHandler: LogHandler {
    var metadata: Logger.Metadata { get set }
}

extension StderrLogHandler {
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}

/// `grandfather: message` on stderr, with the level for warnings and errors.
struct HumanLogHandler: StderrLogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    func log(event: LogEvent) {
        let prefix = event.level >= .warning ? "\(event.level.rawValue): " : ""
        Stderr.line("grandfather: \(prefix)" + TerminalText.safe("\(event.message)"))
    }
}

/// One JSON object per line on stderr: `time`, `level`, `event`, `message`, then the
/// event's fields; whole numbers and decimals are JSON numbers.
struct JSONLogHandler: StderrLogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { $1 } }
        Stderr.line(Self.render(level: event.level, message: "\(event.message)", metadata: fields))
    }

    static func render(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        var object: [String: Any] = [
            "time": ISO8601DateFormatter().string(from: Date()), "level": level.rawValue, "message": message,
        ]
        for (key, value) in metadata { object[key] = json(value) }
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): return text
        case .stringConvertible(let number as Int): return number
        // Microseconds are plenty, and keep binary fractions like 0.0038401299999999998 out.
        case .stringConvertible(let number as Double): return Decimal(string: String(format: "%.6f", number)) ?? 0
        case .stringConvertible(let flag as Bool): return flag
        case .stringConvertible(let other): return other.description
        case .array(let items): return items.map(json)
        case .dictionary(let fields): return fields.mapValues(json)
        }
    }
}
