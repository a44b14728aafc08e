import Foundation
import Testing

@_spi(TestHooks) @testable import GrandfatherCore
@testable import GrandfatherEngine

/// One input file of a fixture: a name inside the fixture's folder and its bytes.
struct FixtureFile: Sendable {
    var name: String
    var bytes: [UInt8]

    /// A file holding `contents` as UTF-8.
    init(_ name: String, _ contents: String) {
        self.name = name
        self.bytes = Array(contents.utf8)
    }

    /// A file holding `bytes` as they are (a compressed file, say).
    init(_ name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}

/// The policy a fixture writes, with defaults close to SPEC §3's example; a test overrides
/// what its rule needs.
struct PolicySpec: Sendable {
    var name: String? = "unit test"
    var cutoverDate = "2024-03-01T00:00:00Z"
    /// `nil` writes no `versions` table.
    var versions: [(String, String)]? = [("ios", "245"), ("ipados", "245"), ("macos", "2.0"), ("default", "2.0")]
    var basis: String? = "version"
    var grandfatheredEntitlements = ["premium"]
    /// Product id, entitlements, term in days.
    var products: [(String, [String], Int?)] = [
        ("pro.monthly", ["premium"], nil),
        ("pro.lifetime", ["premium"], nil),
        ("nav.1year", ["navigation"], 365),
        ("pass.30days", ["premium"], 30),
        ("pass.flex", ["premium"], nil),
        ("coins.100", [], nil),
        ("tip.jar", [], nil),
    ]
    /// `products[id].type` by product id; a product not in `products` is added with no entitlements.
    var productTypes: [String: String] = [:]
    var nonRenewingTermDays: Int?
    var edgeWindowHours: Double?
    /// 1 by default, so that tests of rejected rows never trip the threshold.
    var maxRejectedFraction: Double? = 1
    var defaultTimeZone: String?
    /// The `apple` section's JSON object text, if any.
    var apple: String?
    /// The `sales` section's JSON object text, if any.
    var sales: String?

    /// The policy as JSON text.
    var json: String {
        var top: [String] = []
        if let name { top.append("\"name\": \(quoted(name))") }
        var cutover = ["\"date\": \(quoted(cutoverDate))"]
        if let versions {
            let entries = versions.map { "\(quoted($0.0)): \(quoted($0.1))" }.joined(separator: ", ")
            cutover.append("\"versions\": {\(entries)}")
        }
        if let basis { cutover.append("\"basis\": \(quoted(basis))") }
        top.append("\"cutover\": {\(cutover.joined(separator: ", "))}")
        top.append("\"grandfathered_entitlements\": [\(grandfatheredEntitlements.map(quoted).joined(separator: ", "))]")
        let listed = Set(products.map(\.0))
        let added = productTypes.keys.sorted().filter { !listed.contains($0) }.map { ($0, [String](), Int?.none) }
        let productEntries = (products + added).map { product -> String in
            var fields = ["\"entitlements\": [\(product.1.map(quoted).joined(separator: ", "))]"]
            if let term = product.2 { fields.append("\"term_days\": \(term)") }
            if let type = productTypes[product.0] { fields.append("\"type\": \(quoted(type))") }
            return "\(quoted(product.0)): {\(fields.joined(separator: ", "))}"
        }
        top.append("\"products\": {\(productEntries.joined(separator: ",\n    "))}")
        if let nonRenewingTermDays { top.append("\"non_renewing_term_days\": \(nonRenewingTermDays)") }
        if let edgeWindowHours { top.append("\"edge_window_hours\": \(edgeWindowHours)") }
        if let maxRejectedFraction { top.append("\"max_rejected_fraction\": \(maxRejectedFraction)") }
        if let defaultTimeZone { top.append("\"default_time_zone\": \(quoted(defaultTimeZone))") }
        if let apple { top.append("\"apple\": \(apple)") }
        if let sales { top.append("\"sales\": \(sales)") }
        return "{\n  " + top.joined(separator: ",\n  ") + "\n}\n"
    }
}

/// A JSON string literal for `text`.
func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

/// A test's view of one entitlement grant: what and why.
struct Grant: Equatable, CustomStringConvertible, Sendable {
    var entitlement: String
    var source: EntitlementSource

    init(_ entitlement: String, _ source: EntitlementSource) {
        self.entitlement = entitlement
        self.source = source
    }

    var description: String { "(\(entitlement), \(source.rawValue))" }
}

/// Writes files into a fresh temporary folder, writes and loads a policy, and runs the
/// audit pipeline (stages 1–3) over them.
enum AuditFixture {
    static let defaultAsOf = "2024-06-01T00:00:00Z"

    /// Runs the pipeline over `files`, given to it in this order.
    ///
    /// `binaryFiles` are written beside them (certificates); `signatures.trustedRoots` name
    /// files of the fixture's folder. The files are written into `folder` when one is given,
    /// and left there for the test to look at (and remove); otherwise into a fresh folder,
    /// removed when the run ends. `ingest` says how large files are cut into ranges.
    ///
    /// Every run is also classified by the SQL twin (`SQLTwin`: `grandfather sql` in DuckDB),
    /// and a customer it answers otherwise is an issue of the calling test.
    static func run(
        _ files: [FixtureFile], policy: PolicySpec = PolicySpec(), asOf: String = defaultAsOf,
        binaryFiles: [(name: String, bytes: [UInt8])] = [], signatures: SignatureChecks = SignatureChecks(),
        in given: URL? = nil, ingest: IngestOptions = IngestOptions(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> FixtureRun {
        let folder =
            given
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("grandfather-unit-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if given == nil { try? FileManager.default.removeItem(at: folder) } }
        let (loaded, inputs) = try install(files, policy: policy, in: folder)
        for file in binaryFiles { try Data(file.bytes).write(to: folder.appendingPathComponent(file.name)) }
        var checks = signatures
        checks.trustedRoots = signatures.trustedRoots.map { folder.appendingPathComponent($0).path }
        let instant: Instant
        switch TimestampParser(defaultZone: loaded.defaultTimeZone).parse(asOf) {
        case .success(let value): instant = value
        case .failure(let problem): throw GrandfatherError.usage("as-of: \(problem)")
        }
        var hooks = TestHooks()
        hooks.ingest = ingest
        let settings = AuditSettings(policy: loaded, asOf: instant, signatures: checks)
        let audit = try Pipeline.audits([settings], inputs: inputs, hooks: hooks)[0]
        try SQLTwin.check(
            audit, inputs: inputs, settings: settings, folder: folder, hooks: hooks, sourceLocation: sourceLocation)
        return FixtureRun(audit: audit, folder: folder.path)
    }

    /// Writes `policy` and `files` into `folder`: the policy as loaded from there, and the
    /// files' paths, in order, as inputs.
    static func install(
        _ files: [FixtureFile], policy: PolicySpec, in folder: URL
    ) throws -> (policy: Policy, inputs: [String]) {
        let policyURL = folder.appendingPathComponent("policy.json")
        try Data(policy.json.utf8).write(to: policyURL)
        let loaded = try PolicyLoader.load(path: policyURL.path)
        var inputs: [String] = []
        for file in files {
            let url = folder.appendingPathComponent(file.name)
            try Data(file.bytes).write(to: url)
            inputs.append(url.path)
        }
        return (loaded, inputs)
    }

    /// Runs the pipeline over a customers CSV and a transactions CSV (either may be left out).
    static func run(
        customers: String? = nil, transactions: String? = nil, policy: PolicySpec = PolicySpec(),
        asOf: String = defaultAsOf, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> FixtureRun {
        var files: [FixtureFile] = []
        if let customers { files.append(FixtureFile("customers.csv", customers)) }
        if let transactions { files.append(FixtureFile("transactions.csv", transactions)) }
        return try run(files, policy: policy, asOf: asOf, sourceLocation: sourceLocation)
    }

    /// The error the pipeline throws for `files`, or `nil` when it succeeds.
    static func failure(_ files: [FixtureFile], policy: PolicySpec = PolicySpec()) -> GrandfatherError? {
        do {
            _ = try run(files, policy: policy)
            return nil
        } catch let error as GrandfatherError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }
}

/// The audit of one fixture run, with lookups by customer id and input file name.
struct FixtureRun {
    let audit: Audit
    /// The folder the inputs were written to (already removed, unless the test gave it).
    let folder: String

    /// The path an input was given to the pipeline as.
    func path(_ name: String) -> String {
        URL(fileURLWithPath: folder).appendingPathComponent(name).path
    }

    /// Customer ids in output order.
    var ids: [String] { audit.customers.map(\.customer.id) }

    func result(_ id: String) -> CustomerResult? {
        audit.customers.first { $0.customer.id == id }
    }

    func customerClass(_ id: String) -> CustomerClass? {
        result(id)?.customerClass
    }

    /// Flag codes, in output order.
    func flags(_ id: String) -> [String] {
        result(id)?.flags.map(\.code) ?? []
    }

    /// (entitlement, source) pairs, in output order.
    func grants(_ id: String) -> [Grant] {
        result(id)?.entitlements.map { Grant($0.entitlement, $0.source) } ?? []
    }

    /// The input report of a file.
    func input(_ name: String) -> InputReport? {
        audit.inputs.first { $0.path == path(name) }
    }

    /// The rejections of one file, in line order.
    func rejections(_ name: String) -> [Rejection] {
        audit.rejections.filter { $0.file == path(name) }
    }

    /// The lines of one file's rejections.
    func rejectedLines(_ name: String) -> [Int] {
        rejections(name).map(\.line)
    }
}

extension AuditFixture {
    /// A customers CSV of iOS customers with `version` (by default 300, after the cutover
    /// version 245: not grandfathered, and no flag of their own).
    static func customers(_ ids: String..., version: String = "300") -> String {
        "customer_id,platform,original_app_version\n" + ids.map { "\($0),ios,\(version)\n" }.joined()
    }
}
