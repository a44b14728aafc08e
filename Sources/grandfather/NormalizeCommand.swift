import ArgumentParser
import Foundation
import GrandfatherCore

/// `grandfather normalize`: the inputs read as `audit` reads them, written in the warehouse
/// layout for `grandfather sql` (README, "When one machine is not enough").
struct NormalizeCommand: ParsableCommand, LoggingCommand {
    static let configuration = CommandConfiguration(
        commandName: "normalize",
        abstract: "Write the records the inputs give, as audit reads them, in the warehouse layout.",
        discussion: """
            Writes OUT/customers.csv, customer_fact_sources.csv, transactions.csv (every accepted row, \
            duplicates and sandbox rows included), product_entitlements.csv, service_entitlements.csv, \
            merged_ids.csv, rejected.csv, schema.sql and manifest.json. The folder is built beside OUT and \
            moved into place whole; a folder normalize wrote before is replaced. Exit codes as for audit; past \
            max_rejected_fraction (exit 3) nothing is written.
            """
    )

    @OptionGroup var policyOption: PolicyOption

    @Option(name: .long, help: "The folder to write.")
    var out: String

    @OptionGroup var options: InputOptions

    var logFormat: LogFormat { options.logFormat }
    var verbose: Bool { options.verbose }

    func run() throws {
        let log = EventLog.current
        let (policy, given) = try options.load(policy: policyOption.policy)
        let instant = given ?? InputOptions.now()
        log.event(
            "start", "normalizing \(options.inputs.count) input(s) into \(out)",
            ["inputs": .array(options.inputs.map { .string($0) }), "as_of": .string(instant.iso8601)])
        let settings = AuditSettings(
            policy: policy, asOf: instant, now: InputOptions.clock(), signatures: options.signatureChecks)
        let written = try NormalizedFolder.write(settings, inputs: options.inputs, out: out)
        log.event(
            "normalized",
            "\(out): \(written.customers) customers, \(written.transactions) transaction rows, "
                + "\(written.rejected) rejected of \(written.rowsRead) rows read",
            [
                "out": .string(out), "customers": "\(written.customers)", "transactions": "\(written.transactions)",
                "rejected": "\(written.rejected)",
            ])
        print(
            TerminalText.safe(
                "\(written.customers) customers, \(written.transactions) transaction rows, \(written.rejected) rejected "
                    + "of \(written.rowsRead) rows read → \(out)"))
    }
}
