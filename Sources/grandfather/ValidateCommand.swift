import ArgumentParser
import Foundation
import GrandfatherCore

/// `grandfather validate`: the pre-flight of a nightly run. Reads the policy and every input
/// as `audit` would, and reports what it found, writing nothing.
struct ValidateCommand: ParsableCommand, LoggingCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check the policy and the inputs (kinds, accounting, rejections) without writing outputs.",
        discussion: """
            Prints each input's recognised kind and format and its accounting, then the rejected \
            rows (the first \(ValidateCommand.listed)), then the customers per class. Exit codes as for audit: \
            0 fine, 1 an input cannot be read, 2 usage, policy or unrecognisable input, 3 rejected rows \
            over max_rejected_fraction.
            """
    )

    /// Rejected rows printed; the count says how many more there are.
    static let listed = 20

    @OptionGroup var policyOption: PolicyOption
    @OptionGroup var options: InputOptions

    var logFormat: LogFormat { options.logFormat }
    var verbose: Bool { options.verbose }

    func run() throws {
        let log = EventLog.current
        let (policy, given) = try options.load(policy: policyOption.policy)
        let instant = given ?? InputOptions.now()
        log.event(
            "start", "validation of \(options.inputs.count) input(s)",
            ["inputs": .array(options.inputs.map { .string($0) }), "as_of": .string(instant.iso8601)])
        var settings = AuditSettings(
            policy: policy, asOf: instant, now: InputOptions.clock(), signatures: options.signatureChecks)
        settings.mapping = try options.mapping()
        let audit = try Pipeline.audit(settings, inputs: options.inputs)
        log.stages(audit)
        if let warning = AppStoreSection.warning(audit.appStore) { log.warning(warning) }
        print(ValidationReport.render(audit), terminator: "")
        if audit.exceedsRejectionThreshold {
            throw GrandfatherError.dataQuality(
                rejected: audit.rowsRejected, read: audit.rowsRead, maximumFraction: policy.maxRejectedFraction,
                runFolder: nil)
        }
        log.result(audit, exitCode: 0, runFolder: nil)
    }
}

/// What `validate` prints on stdout: one line each, control characters in names shown.
enum ValidationReport {
    static func render(_ audit: Audit) -> String {
        var lines: [String] = []
        lines.append(
            "policy \(audit.policy.name ?? "(unnamed)") (sha256 \(audit.policy.digest.prefix(12))), as of \(audit.asOf.iso8601)"
        )
        for input in audit.inputs {
            lines.append(
                "\(input.path): \(input.kind.rawValue), \(input.format.rawValue), "
                    + "\(TerminalText.counted(input.rowsRead, "row", "rows")) read, \(input.rowsAccepted) accepted, "
                    + "\(input.rowsRejected) rejected (\(TerminalText.counted(input.exactDuplicates, "exact duplicate", "exact duplicates")), "
                    + "\(input.superseded) superseded, \(input.sandboxRows) sandbox)")
        }
        lines.append(
            "all inputs: \(TerminalText.counted(audit.rowsRead, "row", "rows")) read = \(audit.rowsAccepted) accepted + "
                + "\(audit.rowsRejected) rejected; rejected fraction \(String(format: "%.4f", audit.rejectedFraction)), "
                + "max \(audit.policy.maxRejectedFraction)" + (audit.exceedsRejectionThreshold ? " (EXCEEDED)" : ""))
        if let warning = AppStoreSection.warning(audit.appStore) { lines.append("warning: \(warning)") }
        lines.append(contentsOf: AppStoreSection.lines(audit.appStore))
        if let merged = MergedIDsSection.line(audit) { lines.append(merged) }
        lines.append(contentsOf: ProductFindings.lines(audit.productFindings))
        lines.append(contentsOf: PopulationSection.validationLines(audit.population))
        lines.append(contentsOf: PopulationSection.warnings(audit.population).map { "warning: \($0)" })
        for rejection in audit.rejections.prefix(ValidateCommand.listed) {
            var place = "\(rejection.file):\(rejection.line):"
            if let column = rejection.column { place += "\(column):" }
            lines.append("rejected \(place) \(rejection.reason)")
        }
        if audit.rejections.count > ValidateCommand.listed {
            lines.append("… and \(audit.rejections.count - ValidateCommand.listed) more rejected rows")
        }
        lines.append(Summary.line(audit))
        return lines.map { TerminalText.safe($0) + "\n" }.joined()
    }
}
