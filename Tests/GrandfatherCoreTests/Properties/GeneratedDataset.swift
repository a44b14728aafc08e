import PropertyBased

/// A small canonical dataset drawn at random for the property tests: customer and transaction
/// rows, each a handful of small numbers picking from fixed pools (`Pools`), so that ids,
/// products, dates and versions collide often (exact and conflicting duplicates, orphans,
/// sandbox rows) and shrinking moves towards fewer, plainer rows.
///
/// A row's *content* is what normalisation keeps; its `spelling` only chooses how the same
/// content is written (`IOS` or `ios`, `Z` or `+02:00` or epoch milliseconds, `4.99` or
/// `04.990`), so two rows differing only in spelling are exact duplicates.
struct GeneratedDataset: Sendable, CustomStringConvertible {
    var customers: [CustomerRow]
    var transactions: [TransactionRow]
    /// Drives every choice of layout: formats, column and key orders, shuffles, splits.
    var layoutSeed: UInt64

    var description: String {
        "customers: \(customers.map(\.description)), transactions: \(transactions.map(\.description)), "
            + "layout seed \(layoutSeed)"
    }

    /// The same rows where every valid customer row of an id has the content of the first
    /// (spellings may still differ): no customer id repeats with other content (SPEC §8.7),
    /// so which row comes first cannot matter.
    var withoutConflictingCustomers: GeneratedDataset {
        var first: [Int: CustomerRow] = [:]
        var copy = self
        for index in copy.customers.indices where copy.customers[index].defect == .none {
            let row = copy.customers[index]
            if let earlier = first[row.id] {
                copy.customers[index] = CustomerRow(
                    id: row.id, platform: earlier.platform, version: earlier.version, purchase: earlier.purchase,
                    extras: earlier.extras, defect: .none, spelling: row.spelling)
            } else {
                first[row.id] = row
            }
        }
        return copy
    }
}

/// Why a generated row is invalid; `none` for a valid row.
enum RowDefect: Int, Sendable, CaseIterable {
    case none
    /// Customers: no customer_id. Transactions: no product_id.
    case missingRequired
    /// Customers: platform `windows`. Transactions: product_type `subscription`.
    case unknownEnum
    /// Customers: original_purchase_date 30 February. Transactions: expires_date `soon`.
    case badTimestamp
    /// Customers: a zone-less preorder_date. Transactions: price `4,99`.
    case badValue
    /// CSV: one field more than the header; JSON: an object in a known field.
    case structural
    /// Invalid UTF-8 in customer_id.
    case invalidUTF8
    /// A NUL byte in customer_id.
    case nulByte
    /// Epoch milliseconds beyond what an instant holds, in the row's required date.
    case outOfRange

    /// About one row in four is invalid; the generator's lowest numbers are valid rows, so
    /// shrinking makes rows valid.
    static let generator = Gen.int(in: 0...31).map { RowDefect(rawValue: max(0, $0 - 23)) ?? .none }
}

/// One customers row.
struct CustomerRow: Sendable, Equatable, CustomStringConvertible {
    /// Index into `Pools.customerIDs`.
    var id: Int
    /// Index into `Pools.platforms`.
    var platform: Int
    /// Index into `Pools.versions` (0 is absent).
    var version: Int
    /// Index into `Pools.dates` (0 is absent).
    var purchase: Int
    /// Packed: sandbox, preorder, storefront (see the accessors).
    var extras: Int
    var defect: RowDefect
    var spelling: Int

    var isSandbox: Bool { extras % 8 == 7 }
    var hasPreorder: Bool { extras / 8 % 4 == 3 }
    /// Index into `Pools.storefronts` (0 is absent).
    var storefront: Int { extras / 32 % Pools.storefronts.count }

    /// What normalisation keeps: equal contents are exact duplicates.
    var content: [Int] { [id, platform, version, purchase, isSandbox ? 1 : 0, hasPreorder ? 1 : 0, storefront] }

    var description: String { "C(\(id),\(platform),\(version),\(purchase),\(extras),\(defect),\(spelling))" }

    static let generator = zip(
        Gen.int(in: 0...(Pools.customerIDs.count - 1)),
        Gen.int(in: 0...(Pools.platforms.count - 1)),
        Gen.int(in: 0...(Pools.versions.count - 1)),
        Gen.int(in: 0...(Pools.dates.count - 1)),
        Gen.int(in: 0...95),
        RowDefect.generator,
        Gen.int(in: 0...59)
    ).map { id, platform, version, purchase, extras, defect, spelling in
        CustomerRow(
            id: id, platform: platform, version: version, purchase: purchase, extras: extras, defect: defect,
            spelling: spelling)
    }
}

/// One transactions row.
struct TransactionRow: Sendable, Equatable, CustomStringConvertible {
    /// Index into `Pools.transactionIDs`.
    var id: Int
    /// Index into `Pools.transactionCustomerIDs`: the customers' ids, then some only here (orphans).
    var customer: Int
    /// Index into `Pools.products`.
    var product: Int
    /// Index into `Pools.productTypes`.
    var type: Int
    /// Index into `Pools.dates`, never 0: purchase_date is required.
    var purchase: Int
    /// Index into `Pools.expiries` (0 is absent).
    var expires: Int
    /// Packed: renewal state, ownership, revocation, sandbox, price, grace (see the accessors).
    var options: Int
    var defect: RowDefect
    var spelling: Int

    /// Index into `Pools.renewalStates` (0 is absent).
    var renewalState: Int { options % Pools.renewalStates.count }
    /// 0 absent, 1 purchased, 2 family_shared.
    var ownership: Int { options / 6 % 3 }
    var isRevoked: Bool { options / 18 % 2 == 1 }
    var isSandbox: Bool { options / 36 % 8 == 7 }
    /// 0 absent, 1 4.99 with USD, 2 0.
    var price: Int { options / 288 % 3 }
    var hasGrace: Bool { options / 864 % 2 == 1 }

    static let optionCount = 1728

    /// What normalisation keeps: equal contents are exact duplicates, other contents of one id conflict.
    var content: [Int] {
        [
            id, customer, product, type, purchase, expires, renewalState, ownership == 2 ? 1 : 0, isRevoked ? 1 : 0,
            price, hasGrace ? 1 : 0,
        ]
    }

    var description: String {
        "T(\(id),\(customer),\(product),\(type),\(purchase),\(expires),\(options),\(defect),\(spelling))"
    }

    static let generator = zip(
        Gen.int(in: 0...(Pools.transactionIDs.count - 1)),
        Gen.int(in: 0...(Pools.transactionCustomerIDs.count - 1)),
        Gen.int(in: 0...(Pools.products.count - 1)),
        Gen.int(in: 0...(Pools.productTypes.count - 1)),
        Gen.int(in: 1...(Pools.dates.count - 1)),
        Gen.int(in: 0...(Pools.expiries.count - 1)),
        Gen.int(in: 0...(optionCount - 1)),
        RowDefect.generator,
        Gen.int(in: 0...59)
    ).map { id, customer, product, type, purchase, expires, options, defect, spelling in
        TransactionRow(
            id: id, customer: customer, product: product, type: type, purchase: purchase, expires: expires,
            options: options, defect: defect, spelling: spelling)
    }
}

extension GeneratedDataset {
    /// Rows, then repeats of some of them in another spelling (exact duplicates, or conflicts
    /// for a customer repeated after a differing row), and a layout seed.
    static let generator = zip(
        CustomerRow.generator.array(of: 0...10),
        TransactionRow.generator.array(of: 0...24),
        zip(Gen.int(in: 0...99), Gen.int(in: 0...59)).array(of: 0...3),
        zip(Gen.int(in: 0...99), Gen.int(in: 0...59)).array(of: 0...4),
        Gen.uint64(in: 0...UInt64.max)
    ).map { customers, transactions, customerRepeats, transactionRepeats, seed in
        var allCustomers = customers
        var allTransactions = transactions
        for (pick, spelling) in customerRepeats where !customers.isEmpty {
            var copy = customers[pick % customers.count]
            copy.spelling = spelling
            allCustomers.append(copy)
        }
        for (pick, spelling) in transactionRepeats where !transactions.isEmpty {
            var copy = transactions[pick % transactions.count]
            copy.spelling = spelling
            allTransactions.append(copy)
        }
        return GeneratedDataset(customers: allCustomers, transactions: allTransactions, layoutSeed: seed)
    }
}

/// What generated rows pick from: ids that need quoting or escaping, platform spellings,
/// versions that trap a string comparison, instants around the cutover and the as-of.
enum Pools {
    /// PolicySpec's cutover, 2024-03-01T00:00:00Z.
    static let cutover: Int64 = 1_709_251_200
    /// AuditFixture's default as-of, 2024-06-01T00:00:00Z.
    static let asOf: Int64 = 1_717_200_000
    static let day: Int64 = 86_400

    static let customerIDs = ["c0", "c1", "c2", "c3", "c4", "=c5", "c,6", "cé7", "c\"8", "c 9"]
    /// Transactions name the customers, and a few ids no customers row has.
    static let transactionCustomerIDs = customerIDs + ["orphan-a", "orphan-b", "c\u{301}7"]
    static let transactionIDs = (0..<10).map { "t\($0)" } + ["1000000000000001"]

    /// Canonical names and the spellings a row may use for each.
    static let platforms: [(String, [String])] = [
        ("ios", ["ios", "IOS", "iOS"]), ("macos", ["macos", "MacOS", "MACOS"]), ("ipados", ["ipados", "iPadOS"]),
        ("tvos", ["tvos", "TVOS"]), ("watchos", ["watchos"]), ("visionos", ["visionOS"]),
    ]
    static let versions: [String?] = [nil, "200", "245", "300", "2.0", "1.9", "10", "0245", "abc", "2.0.1"]
    /// Seconds since the epoch; index 0 is absent.
    static let dates: [Int64?] = [
        nil, cutover - 400 * day, cutover - 3600, cutover - 1, cutover, cutover + 3600, cutover + 5 * day,
        asOf - 20 * day, asOf + day,
    ]
    static let expiries: [Int64?] = [nil, cutover + 30 * day, asOf - day, asOf, asOf + 30 * day]
    static let storefronts: [String?] = [nil, "USA", "FRA"]
    static let products = [
        "pro.monthly", "pro.lifetime", "nav.1year", "pass.30days", "coins.100", "tip.jar", "odd.one",
    ]
    static let productTypes = ["auto_renewable", "non_renewing", "non_consumable", "consumable"]
    static let renewalStates: [String?] = [
        nil, "subscribed", "expired", "in_billing_retry", "in_grace_period", "revoked",
    ]

    /// A timestamp in one of SPEC §8.6's forms, all naming the same instant.
    static func timestamp(_ seconds: Int64, spelling: Int) -> String {
        switch spelling % 5 {
        case 0: return wallTime(seconds) + "Z"
        case 1: return wallTime(seconds + 7200) + "+02:00"
        case 2: return String(seconds * 1000)
        case 3: return (wallTime(seconds) + ".000000z").lowercased()
        default: return wallTime(seconds - 19_800) + "-0530"
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS` of a UTC instant (days to civil date after H. Hinnant).
    static func wallTime(_ seconds: Int64) -> String {
        let days = seconds / day
        let rest = seconds - days * day
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let dayOfMonth = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(dayOfMonth))T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))"
    }
}
