import ArgumentParser
import Foundation
import GrandfatherCore
import GrandfatherEngine

/// What `audit` and `validate` name their one policy with.
struct PolicyOption: ParsableArguments {
    @Option(name: .long, help: "The policy file (JSON).")
    var policy: String
}

/// What every command that reads inputs shares: the inputs, the instant, and the log.
struct InputOptions: ParsableArguments {
    @Option(name: .customLong("as-of"), help: "The instant to audit at (ISO-8601 or epoch ms). Default: now.")
    var asOf: String?

    @ArgumentParser.Flag(name: .long, help: "Print stage timings and counts to stderr.")
    var verbose = false

    @Option(name: .customLong("log-format"), help: "How events go to stderr: human or json (one object per line).")
    var logFormat: LogFormat = .human

    @Option(
        name: .customLong("trusted-root"),
        help: "A root certificate (DER or PEM) trusted for App Store signatures beside Apple Root CA - G3; repeatable.")
    var trustedRoots: [String] = []

    @Option(
        name: .customLong("verify-at"),
        help: "When App Store certificate chains must be valid: signed-date (each payload's own) or now.")
    var verifyAt: SignatureChecks.VerifyAt = .signedDate

    @ArgumentParser.Flag(
        name: .customLong("trust-decoded"),
        help: "Read App Store payloads that carry no signature (decoded JSON, verifyReceipt responses).")
    var trustDecoded = false

    @ArgumentParser.Flag(
        name: .customLong("no-verify"), help: "Read signed App Store content without checking its signatures.")
    var noVerify = false

    @ArgumentParser.Flag(
        name: .customLong("accept-self-signed"),
        help:
            "Read App Store JWS that fail verification but say they are Xcode or LocalTesting data, as unverified sandbox data (never outranking verified records)."
    )
    var acceptSelfSigned = false

    @Option(
        name: .customLong("map"),
        help: "A mapping (grandfather map --suggest drafts one) that reads your own export's files as SPEC §2's.")
    var map: String?

    @Argument(help: "Customer and transaction files (CSV, JSON array, JSON Lines) and App Store files.")
    var inputs: [String] = []

    /// The mapping `--map` names, read and checked before any input; `nil` without one.
    func mapping() throws(GrandfatherError) -> Mapping? {
        try map.map { path throws(GrandfatherError) in try Mapping.load(path: path) }
    }

    /// How App Store signatures are treated; every report says when this weakens trust.
    var signatureChecks: SignatureChecks {
        var checks = SignatureChecks()
        checks.verify = !noVerify
        checks.verifyAt = verifyAt
        checks.trustDecoded = trustDecoded
        checks.trustedRoots = trustedRoots
        checks.acceptSelfSigned = acceptSelfSigned
        return checks
    }

    /// The policies at `paths`, and the `--as-of` instant read in the first one's zone (`nil`
    /// when not given: the command takes `now()` at the moment its run begins).
    func load(policies paths: [String]) throws(GrandfatherError) -> ([Policy], Instant?) {
        guard !inputs.isEmpty else { throw GrandfatherError.usage("no input files given") }
        var policies: [Policy] = []
        for path in paths { policies.append(try PolicyLoader.load(path: path)) }
        guard let first = policies.first else { throw GrandfatherError.usage("no policy given") }
        return (policies, try Self.resolveAsOf(asOf, policy: first))
    }

    /// One policy, and the `--as-of` instant when given.
    func load(policy path: String) throws(GrandfatherError) -> (Policy, Instant?) {
        let (policies, instant) = try load(policies: [path])
        return (policies[0], instant)
    }

    /// The default as-of: now, to the second (a nightly report reads better without
    /// microseconds). `audit` and `compare` take it once they hold the output folder's lock,
    /// so that a run queued by `--wait` audits at the moment it ran, not when it was started.
    static func now() -> Instant {
        Instant(seconds: clock().wholeSeconds)
    }

    /// The present, from the system's clock: the one place the tool reads it.
    @Sendable static func clock() -> Instant {
        Instant(microseconds: Int64((Date().timeIntervalSince1970 * 1_000_000).rounded(.down)))
    }

    /// `--as-of` read in the policy's zone.
    private static func resolveAsOf(_ asOf: String?, policy: Policy) throws(GrandfatherError) -> Instant? {
        guard let asOf else { return nil }
        switch TimestampParser(defaultZone: policy.defaultTimeZone).parse(asOf) {
        case .success(let instant): return instant
        case .failure(let problem): throw .usage("--as-of: " + problem.reason(for: asOf))
        }
    }
}

extension SignatureChecks.VerifyAt: ExpressibleByArgument {}

/// A command that reports through an `EventLog`; the entry point reads the format before
/// running it, so that even a failure is reported in that format.
protocol LoggingCommand {
    var logFormat: LogFormat { get }
    var verbose: Bool { get }
}

/// Seconds with two decimals, for log lines.
func twoDecimals(_ seconds: Double) -> String { String(format: "%.2f", seconds) }
