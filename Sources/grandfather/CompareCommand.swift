import ArgumentParser
import Foundation
import GrandfatherCore
import Logging

/// `grandfather compare`: a dry run of two policies over the same inputs, written to a
/// folder of its own; an audit's outputs are never touched.
struct CompareCommand: ParsableCommand, LoggingCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Classify the inputs under two policies and write what differs (a dry run).",
        discussion: """
            Reads the inputs once and classifies them under policy A and policy B (both must \
            use one default_time_zone). Writes compare.md, compare.csv and compare.html into \
            OUT/runs/<run-id>/ and points OUT/latest at it, as audit does; OUT must not hold audit \
            runs. Exit codes: 0 success, 1 the run failed or another run holds OUT/.lock, 2 usage, \
            policy or input error.
            """
    )

    @Option(name: .long, help: "Policy A, then policy B (give --policy twice).")
    var policy: [String] = []

    @OptionGroup var options: InputOptions

    @Option(name: .long, help: "The output folder (never an audit's).")
    var out: String = "reports/compare"

    @Option(name: .long, help: "Seconds to wait for another run holding OUT/.lock; 0 fails at once.")
    var wait: Double = 0

    var logFormat: LogFormat { options.logFormat }
    var verbose: Bool { options.verbose }
    private var inputs: [String] { options.inputs }

    func validate() throws {
        guard policy.count == 2 else { throw ValidationError("give exactly two policies: --policy A --policy B") }
        guard wait >= 0, wait.isFinite else { throw ValidationError("--wait must be a number of seconds, 0 or more") }
    }

    func run() throws {
        let log = EventLog.current
        let (policies, given) = try options.load(policies: policy)
        var fields: Logger.Metadata = ["inputs": .array(inputs.map { .string($0) }), "out": .string(out)]
        if let given { fields["as_of"] = .string(given.iso8601) }
        log.event("start", "comparison of 2 policies over \(inputs.count) input(s) into \(out)", fields)
        var run = AuditRun(directory: out, clock: InputOptions.clock)
        run.wait = wait
        run.asOf = given
        run.signatures = options.signatureChecks
        run.mapping = try options.mapping()
        run.events = RunEvents(log: log, progress: nil)
        let (comparison, outcome) = try run.compare(policies[0], policies[1], inputs: inputs)
        print(
            "\(comparison.a.customers.count) customers; \(comparison.differences.count) treated differently under the two policies"
        )
        print(TerminalText.safe("\(outcome.runFolder) → \(out)/latest"))
        log.event(
            "result", "\(comparison.differences.count) customers treated differently",
            [
                "exit_code": .stringConvertible(0), "customers": .stringConvertible(comparison.a.customers.count),
                "differences": .stringConvertible(comparison.differences.count),
                "run_folder": .string(outcome.runFolder),
            ])
    }
}
