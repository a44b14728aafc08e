import ArgumentParser
import Foundation
@_spi(TestHooks) import GrandfatherCore

/// `grandfather normalize`: the inputs read as `audit` reads them, written in the warehouse
/// layout for `grandfather sql` (docs/Warehouse.md, "When one machine is not enough").
struct NormalizeCommand: ParsableCommand, LoggingCommand {
    static let configuration = CommandConfiguration(
        commandName: "normalize",
        abstract: "Write the records the inputs give, as audit reads them, in the warehouse layout.",
        discussion: """
            Writes OUT/customers.csv, customer_fact_sources.csv, transactions-00001.csv, \
            transactions-00002.csv, … (every accepted row, duplicates and sandbox rows included, in input \
            order part after part; load them as transactions-*.csv), product_entitlements.csv, service_entitlements.csv, \
            merged_ids.csv, rejected.csv, schema.sql, manifest.json and .grandfather-normalize (the mark of \
            a folder normalize wrote). The folder is built beside OUT and moved into place whole, holding \
            .OUT.normalize.lock beside it meanwhile; only a folder holding the mark (or an empty one) is \
            replaced, and what a killed run left is put right by the next. Exit codes as for audit; past \
            max_rejected_fraction (exit 3) nothing is written.
            """
    )

    @OptionGroup var policyOption: PolicyOption

    @Option(name: .long, help: "The folder to write.")
    var out: String

    @Option(name: .long, help: "Seconds to wait for another normalize holding .OUT.normalize.lock; 0 fails at once.")
    var wait: Double = 0

    @OptionGroup var options: InputOptions

    @OptionGroup var testHooks: TestHookOptions

    var logFormat: LogFormat { options.logFormat }
    var verbose: Bool { options.verbose }

    func validate() throws {
        guard wait >= 0, wait.isFinite else { throw ValidationError("--wait must be a number of seconds, 0 or more") }
    }

    func run() throws {
        let log = EventLog.current
        // OUT is checked before any input is read; again, with what a killed run left put
        // right, once the lock is held.
        let target = try NormalizeTarget(out: out)
        try target.checkReplaceable()
        let (policy, given) = try options.load(policy: policyOption.policy)
        let lock = try target.lock(wait: wait, startedAt: InputOptions.clock().iso8601)
        // As audit's: a run queued by --wait normalizes as of the moment it ran.
        let instant = given ?? InputOptions.now()
        log.event(
            "start", "normalizing \(options.inputs.count) input(s) into \(out)",
            ["inputs": .array(options.inputs.map { .string($0) }), "as_of": .string(instant.iso8601)])
        var settings = AuditSettings(
            policy: policy, asOf: instant, now: InputOptions.clock(), signatures: options.signatureChecks)
        settings.mapping = try options.mapping()
        let written = try NormalizedFolder.write(
            settings, inputs: options.inputs, into: target, lock: lock, progress: nil,
            recovered: { log.warning($0.description, ["out": .string(out)]) }, hooks: testHooks.hooks)
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
