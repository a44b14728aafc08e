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
        let (policy, instant) = try options.load(policy: policyOption.policy)
        log.event(
            "start", "validation of \(options.inputs.count) input(s)",
            ["inputs": .array(options.inputs.map { .string($0) }), "as_of": .string(instant.iso8601)])
        let audit = try Pipeline.audit(
            policy: policy, inputs: options.inputs, asOf: instant, signatures: options.signatureChecks)
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

/// What `validate` prints on stdout.
enum ValidationReport {
    static func render(_ audit: Audit) -> String {
        var text = "policy \(audit.policy.name ?? "(unnamed)") (sha256 \(audit.policy.digest.prefix(12))), "
        text += "as of \(audit.asOf.iso8601)\n"
        for input in audit.inputs {
            text += "\(input.path): \(input.kind.rawValue), \(input.format.rawValue), \(input.rowsRead) rows read, "
            text += "\(input.rowsAccepted) accepted, \(input.rowsRejected) rejected"
            text += " (\(input.exactDuplicates) exact duplicates, \(input.sandboxRows) sandbox)\n"
        }
        text += "all inputs: \(audit.rowsRead) rows read = \(audit.rowsAccepted) accepted + \(audit.rowsRejected) "
        text += "rejected; rejected fraction \(String(format: "%.4f", audit.rejectedFraction)), "
        text += "max \(audit.policy.maxRejectedFraction)"
        text += audit.exceedsRejectionThreshold ? " (EXCEEDED)\n" : "\n"
        if let warning = AppStoreSection.warning(audit.appStore) { text += "warning: \(warning)\n" }
        for line in AppStoreSection.lines(audit.appStore) { text += line + "\n" }
        for rejection in audit.rejections.prefix(ValidateCommand.listed) {
            var place = "\(rejection.file):\(rejection.line):"
            if let column = rejection.column { place += "\(column):" }
            text += "rejected \(place) \(rejection.reason)\n"
        }
        if audit.rejections.count > ValidateCommand.listed {
            text += "… and \(audit.rejections.count - ValidateCommand.listed) more rejected rows\n"
        }
        text += Summary.line(audit) + "\n"
        return text
    }
}
