import Foundation
import GrandfatherEngine

/// Reads and validates a policy file before any input is read (SPEC §3).
///
/// Every problem is a `GrandfatherError.policy` naming the file, the key's line and
/// column, and the key's dotted path.
public enum PolicyLoader {
    /// A policy is a few hundred bytes; a larger file than this is refused before it is read.
    static let maximumSize = 16 << 20

    /// Loads the policy at `path`.
    public static func load(path: String) throws(GrandfatherError) -> Policy {
        let bytes = try ReadableFile.readAll(path, as: .policy, limit: maximumSize) { _ -> GrandfatherError in
            .policy(file: path, line: nil, column: nil, message: "policy file larger than 16 MiB")
        }
        return try parse(data: Data(bytes), file: path)
    }

    /// Parses policy bytes; `file` names them in errors.
    public static func parse(data: Data, file: String) throws(GrandfatherError) -> Policy {
        let members = try SettingsDocument.members(data, file: file, noun: "policy")
        var reader = PolicyReader(file: file)
        var policy = try reader.policy(members)
        policy.digest = SettingsDocument.digest(data)
        policy.sourceText = String(decoding: data, as: UTF8.self)
        return policy
    }
}

/// Walks the policy's JSON, checking each key against what SPEC §3 allows.
struct PolicyReader {
    let file: String

    func fail(_ member: JSONMember, _ path: String, _ message: String) -> GrandfatherError {
        .policy(file: file, line: member.valueLine, column: member.valueColumn, message: "\(path): \(message)")
    }

    func unknownKey(_ member: JSONMember, in path: String?) -> GrandfatherError {
        let name = path.map { "\($0).\(member.key)" } ?? member.key
        return .policy(file: file, line: member.line, column: member.column, message: "unknown key \"\(name)\"")
    }

    func checkDuplicates(_ members: [JSONMember], in path: String?) throws(GrandfatherError) {
        var seen = Set<String>()
        for member in members where !seen.insert(member.key).inserted {
            let name = path.map { "\($0).\(member.key)" } ?? member.key
            throw .policy(file: file, line: member.line, column: member.column, message: "duplicate key \"\(name)\"")
        }
    }

    mutating func policy(_ members: [JSONMember]) throws(GrandfatherError) -> Policy {
        try checkDuplicates(members, in: nil)
        var name: String?
        var cutoverMember: JSONMember?
        var entitlements: [String]?
        var products: [String: ProductRule] = [:]
        var termDays = 365
        var windowSeconds: Int64 = 24 * 3600
        var maxFraction = 0.001
        var zone: WallClockZone?
        var exchange: ExchangeRates?
        var apple = ApplePolicy()
        var sales = SalesPolicy()
        for member in members {
            switch member.key {
            case "name": name = try string(member, "name")
            case "fx": exchange = try exchangeRates(member)
            case "apple": apple = try applePolicy(member)
            case "sales": sales = try salesPolicy(member)
            case "cutover": cutoverMember = member
            case "grandfathered_entitlements":
                let list = try stringList(member, "grandfathered_entitlements")
                guard !list.isEmpty else { throw fail(member, "grandfathered_entitlements", "must not be empty") }
                entitlements = list
            case "products": products = try productTable(member)
            case "non_renewing_term_days": termDays = try nonNegativeInteger(member, "non_renewing_term_days")
            case "edge_window_hours":
                let hours = try nonNegativeNumber(member, "edge_window_hours")
                guard hours <= 1_000_000 else { throw fail(member, "edge_window_hours", "too large") }
                windowSeconds = Int64((hours * 3600).rounded())
            case "max_rejected_fraction":
                maxFraction = try nonNegativeNumber(member, "max_rejected_fraction")
                guard maxFraction <= 1 else { throw fail(member, "max_rejected_fraction", "must be between 0 and 1") }
            case "default_time_zone":
                let identifier = try string(member, "default_time_zone")
                guard let resolved = WallClockZone(identifier: identifier) else {
                    throw fail(member, "default_time_zone", "unknown time zone '\(identifier)'")
                }
                zone = resolved
            default: throw unknownKey(member, in: nil)
            }
        }
        guard let cutoverMember else {
            throw .policy(file: file, line: 1, column: 1, message: "missing required key \"cutover\"")
        }
        guard let entitlements else {
            throw .policy(
                file: file, line: 1, column: 1, message: "missing required key \"grandfathered_entitlements\"")
        }
        let cutover = try cutover(cutoverMember, zone: zone)
        var policy = Policy(
            name: name, cutover: cutover, grandfatheredEntitlements: entitlements, products: products,
            nonRenewingTermDays: termDays, edgeWindowSeconds: windowSeconds, maxRejectedFraction: maxFraction,
            defaultTimeZone: zone, exchangeRates: exchange, apple: apple, digest: "", sourceText: "")
        policy.sales = sales
        return policy
    }

    func cutover(_ member: JSONMember, zone: WallClockZone?) throws(GrandfatherError) -> Cutover {
        guard let members = member.value.members else {
            throw fail(member, "cutover", "must be an object, not \(member.value.typeName)")
        }
        try checkDuplicates(members, in: "cutover")
        var date: Instant?
        var versionsMember: JSONMember?
        var basis = CutoverBasis.version
        for item in members {
            switch item.key {
            case "date":
                let text = try string(item, "cutover.date")
                switch TimestampParser(defaultZone: zone).parse(text) {
                case .success(let instant): date = instant
                case .failure(let problem): throw fail(item, "cutover.date", problem.reason(for: text))
                }
            case "versions": versionsMember = item
            case "basis":
                let text = try string(item, "cutover.basis")
                guard let value = CutoverBasis(rawValue: text.lowercased()) else {
                    throw fail(item, "cutover.basis", "must be version, date, either or both, not '\(text)'")
                }
                basis = value
            default: throw unknownKey(item, in: "cutover")
            }
        }
        guard let date else { throw fail(member, "cutover", "missing required key \"cutover.date\"") }
        var versions: [Platform: AppVersion]?
        var defaultVersion: AppVersion?
        if let versionsMember {
            guard let entries = versionsMember.value.members else {
                throw fail(versionsMember, "cutover.versions", "must be an object")
            }
            try checkDuplicates(entries, in: "cutover.versions")
            var table: [Platform: AppVersion] = [:]
            for entry in entries {
                let path = "cutover.versions.\(entry.key)"
                let text: String
                switch entry.value {
                case .string(let value), .number(let value): text = value
                default: throw fail(entry, path, "must be a version string, not \(entry.value.typeName)")
                }
                guard let version = AppVersion(text) else {
                    throw fail(entry, path, "unparseable version '\(text)' (dot-separated integers expected)")
                }
                if entry.key.lowercased() == "default" {
                    defaultVersion = version
                } else if let platform = Platform(rawValue: entry.key.lowercased()) {
                    table[platform] = version
                } else {
                    throw .policy(
                        file: file, line: entry.line, column: entry.column,
                        message:
                            "unknown key \"\(path)\" (platforms: ios, ipados, macos, tvos, watchos, visionos, android, web, amazon, default)"
                    )
                }
            }
            versions = table
        }
        if basis != .date, (versions ?? [:]).isEmpty, defaultVersion == nil {
            throw fail(member, "cutover.versions", "required unless basis is date (at least one platform or default)")
        }
        return Cutover(date: date, versions: versions, defaultVersion: defaultVersion, basis: basis)
    }

    func productTable(_ member: JSONMember) throws(GrandfatherError) -> [String: ProductRule] {
        guard let entries = member.value.members else { throw fail(member, "products", "must be an object") }
        try checkDuplicates(entries, in: "products")
        var table: [String: ProductRule] = [:]
        for entry in entries {
            let path = "products.\(entry.key)"
            guard let fields = entry.value.members else { throw fail(entry, path, "must be an object") }
            try checkDuplicates(fields, in: path)
            var rule = ProductRule(entitlements: [], termDays: nil)
            var sawEntitlements = false
            for field in fields {
                switch field.key {
                case "entitlements":
                    rule.entitlements = try stringList(field, "\(path).entitlements")
                    sawEntitlements = true
                case "term_days": rule.termDays = try nonNegativeInteger(field, "\(path).term_days")
                case "type":
                    let text = try string(field, "\(path).type")
                    guard let type = ProductType(rawValue: text) else {
                        let types = ProductType.allCases.map(\.rawValue).joined(separator: ", ")
                        throw fail(field, "\(path).type", "must be one of \(types), not \"\(Excerpt.of(text))\"")
                    }
                    rule.type = type
                default: throw unknownKey(field, in: path)
                }
            }
            guard sawEntitlements else { throw fail(entry, path, "missing required key \"entitlements\"") }
            table[entry.key] = rule
        }
        return table
    }

    /// `fx`: `{"currency": "EUR", "rates": {"USD": 0.92, …}}`, each rate the reporting
    /// currency's amount for one unit of the other, kept as exact decimal text.
    func exchangeRates(_ member: JSONMember) throws(GrandfatherError) -> ExchangeRates {
        guard let fields = member.value.members else { throw fail(member, "fx", "must be an object") }
        try checkDuplicates(fields, in: "fx")
        var currency: String?
        var rates: [String: Decimal] = [:]
        for field in fields {
            switch field.key {
            case "currency":
                let code = try string(field, "fx.currency").uppercased()
                guard !code.isEmpty else { throw fail(field, "fx.currency", "must not be empty") }
                currency = code
            case "rates":
                guard let entries = field.value.members else { throw fail(field, "fx.rates", "must be an object") }
                try checkDuplicates(entries, in: "fx.rates")
                for entry in entries {
                    let path = "fx.rates.\(entry.key)"
                    guard case .number(let text) = entry.value, let rate = Decimal(string: text), rate > 0 else {
                        throw fail(entry, path, "must be a number above zero")
                    }
                    rates[entry.key.uppercased()] = rate
                }
            default: throw unknownKey(field, in: "fx")
            }
        }
        guard let currency else { throw fail(member, "fx", "missing required key \"currency\"") }
        return ExchangeRates(currency: currency, rates: rates)
    }

    func string(_ member: JSONMember, _ path: String) throws(GrandfatherError) -> String {
        guard case .string(let text) = member.value else {
            throw fail(member, path, "must be a string, not \(member.value.typeName)")
        }
        return text
    }

    func stringList(_ member: JSONMember, _ path: String) throws(GrandfatherError) -> [String] {
        guard case .array(let items) = member.value else {
            throw fail(member, path, "must be an array of strings, not \(member.value.typeName)")
        }
        var list: [String] = []
        for item in items {
            guard case .string(let text) = item.value, !text.isEmpty else {
                throw fail(member, path, "must hold non-empty strings only")
            }
            if !list.contains(text) { list.append(text) }
        }
        return list
    }

    func nonNegativeNumber(_ member: JSONMember, _ path: String) throws(GrandfatherError) -> Double {
        guard case .number(let text) = member.value else {
            throw fail(member, path, "must be a number, not \(member.value.typeName)")
        }
        // A literal of thousands of digits is no number a policy means.
        guard let value = Double(text), value.isFinite else { throw fail(member, path, "number out of range") }
        guard value >= 0 else { throw fail(member, path, "must not be negative") }
        return value
    }

    func nonNegativeInteger(_ member: JSONMember, _ path: String) throws(GrandfatherError) -> Int {
        let value = try nonNegativeNumber(member, path)
        guard value == value.rounded(), value <= 1_000_000 else {
            throw fail(member, path, "must be a whole number of days up to 1000000")
        }
        return Int(value)
    }
}
