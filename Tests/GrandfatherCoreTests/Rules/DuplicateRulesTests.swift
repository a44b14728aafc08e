import Foundation
import PropertyBased
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// SPEC §8.23 is stated once, `DuplicateRules`, and its two fast forms are held to it: the
/// ledger's content hash (`TransactionFingerprints.content`, which a batch takes of each row
/// it holds) is equal for two rows exactly when `sameContent` calls them the same, over many
/// drawn pairs, and the SQL twin compares exactly the rule's fields.
///
/// Instants are drawn from 1970 to 2100: `StableHash` takes an absent instant for -2 µs, so an
/// expiry two microseconds before 1970 and none would share a hash, a date no store gives.
@Suite struct DuplicateRulesTests {
    @Test(
        "two rows apart in one field are two versions, and their hashes differ",
        arguments: DuplicateRules.Field.allCases)
    func oneFieldApart(field: DuplicateRules.Field) throws {
        var random = Xoshiro(seed: (23, 8, UInt64(DuplicateRules.Field.allCases.firstIndex(of: field) ?? 0), 1))
        for _ in 0..<400 {
            var drawn = TransactionBatch()
            let one = Self.draw(in: &drawn, using: &random)
            var other = one
            Self.change(field, of: &other, in: &drawn, using: &random)
            let (first, second) = try Self.hashes(one, other, of: drawn, using: &random)
            let shown = "\(field): \(Self.shown(one, in: drawn)) against \(Self.shown(other, in: drawn))"
            #expect(!DuplicateRules.sameContent(one, in: drawn, other, in: drawn), "\(shown)")
            #expect(first.hash != second.hash, "\(shown)")
        }
    }

    @Test("a copy is the same content, wherever its bytes lie and whatever its provenance or store says")
    func copiesAreTheSame() throws {
        var random = Xoshiro(seed: (23, 8, 0, 2))
        for _ in 0..<2_000 {
            var drawn = TransactionBatch()
            let one = Self.draw(in: &drawn, using: &random)
            let (first, second) = try Self.hashes(one, one, of: drawn, using: &random)
            let shown = Self.shown(one, in: drawn)
            #expect(DuplicateRules.sameContent(one, in: drawn, second.row, in: second.batch), "\(shown)")
            #expect(DuplicateRules.sameContent(first.row, in: first.batch, second.row, in: second.batch), "\(shown)")
            #expect(first.hash == second.hash, "\(shown)")
        }
    }

    @Test("over drawn pairs, hashes are equal exactly when the rule says same")
    func hashesAgreeWithTheRule() throws {
        var random = Xoshiro(seed: (23, 8, 0, 3))
        var outcomes = (same: 0, apart: 0)
        for _ in 0..<5_000 {
            var drawn = TransactionBatch()
            let one = Self.draw(in: &drawn, using: &random)
            var other = one
            // None, one, or a few fields changed (a field changed twice may come back).
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let field = DuplicateRules.Field.allCases.randomElement(using: &random) ?? .record(.price)
                Self.change(field, of: &other, in: &drawn, using: &random)
            }
            let same = DuplicateRules.sameContent(one, in: drawn, other, in: drawn)
            let (first, second) = try Self.hashes(one, other, of: drawn, using: &random)
            #expect(
                (first.hash == second.hash) == same,
                "\(Self.shown(one, in: drawn)) against \(Self.shown(other, in: drawn))")
            if same { outcomes.same += 1 } else { outcomes.apart += 1 }
        }
        #expect(outcomes.same > 500 && outcomes.apart > 2_000, "the pairs exercise both: \(outcomes)")
    }

    /// Every stored property of `Transaction` is a field of the rule, or named here as no
    /// content: a property added to the transaction must be put on one side.
    @Test func everyPropertyOfATransactionIsAFieldOrNamedAsNone() {
        var random = Xoshiro(seed: (23, 8, 0, 4))
        var batch = TransactionBatch()
        // Each field by its property's name: `Transaction` calls SPEC's `ownership_type` `ownership`.
        let fields = DuplicateRules.Field.allCases.map { field -> String in
            switch field {
            case .record(.ownershipType): return "ownership"
            case .record(let field): return "\(field)"
            case .isPromotional: return "isPromotional"
            case .termEnds: return "termEnds"
            }
        }
        let properties = Mirror(reflecting: Self.draw(in: &batch, using: &random)).children.compactMap(\.label)
        #expect(Set(properties).subtracting(["storePlatform", "provenance"]) == Set(fields))
    }

    /// The SQL twin compares the warehouse's columns of exactly the rule's fields, and those are
    /// every column of a transaction's facts (all but where each came from).
    @Test func theSQLComparesTheRulesFields() throws {
        let policy = try PolicyLoader.parse(data: Data(PolicySpec().json.utf8), file: "policy.json")
        let script = try ClassificationScript.text(
            AuditSettings(policy: policy, asOf: Instant(seconds: 1_717_200_000)),
            ClassificationScript.Options(dialect: .duckdb))
        let compared = script.split(separator: "\n").compactMap { line -> [String]? in
            guard let select = line.firstRange(of: "SELECT DISTINCT "), let from = line.firstRange(of: " FROM "),
                line.hasSuffix(" WHERE may_repeat")
            else { return nil }
            return line[select.upperBound..<from.lowerBound].split(separator: ", ").map(String.init)
        }
        let rule = DuplicateRules.Field.allCases.map(\.column)
        #expect(compared == [rule])
        // A fact column the warehouse adds is compared, or the rule says why it is no content.
        let facts = WarehouseLayout.transactions.columns.filter { !$0.isProvenance }.map(\.name)
        #expect(facts == rule)
    }

    // MARK: - Drawing rows

    /// A transaction's texts, each where it lies in the batch that holds it.
    private static var texts: [WritableKeyPath<Transaction, TextRef>] {
        [\.transactionID, \.originalTransactionID, \.customerID, \.productID, \.price, \.currency]
    }

    /// Short texts of a few letters in either case, digits, and an accented letter, so that
    /// case and Unicode's equivalent spellings come up.
    private static func text(using random: inout Xoshiro) -> String {
        let letters = ["a", "B", "c", "X", "y", "0", "7", "-", "é"]
        return (0..<Int.random(in: 1...12, using: &random)).map { _ in letters.randomElement(using: &random) ?? "a" }
            .joined()
    }

    private static func instant(using random: inout Xoshiro) -> Instant {
        Instant(microseconds: Int64.random(in: 0...4_102_444_800_000_000, using: &random))
    }

    private static func maybe<Value>(_ value: Value, using random: inout Xoshiro) -> Value? {
        Int.random(in: 0..<3, using: &random) == 0 ? nil : value
    }

    /// A transaction drawn with every field set or absent at random, its texts stored in `batch`.
    static func draw(in batch: inout TransactionBatch, using random: inout Xoshiro) -> Transaction {
        var row = Transaction(
            transactionID: batch.store(text(using: &random)), originalTransactionID: .absent,
            customerID: batch.store(text(using: &random)), productID: batch.store(text(using: &random)),
            productType: ProductType.allCases.randomElement(using: &random) ?? .consumable,
            purchaseDate: instant(using: &random), expiresDate: maybe(instant(using: &random), using: &random),
            revocationDate: maybe(instant(using: &random), using: &random),
            ownership: OwnershipType.allCases.randomElement(using: &random) ?? .purchased,
            environment: Environment.allCases.randomElement(using: &random) ?? .production, price: .absent,
            currency: .absent,
            renewalState: maybe(RenewalState.allCases.randomElement(using: &random) ?? .subscribed, using: &random),
            gracePeriodExpiresDate: maybe(instant(using: &random), using: &random))
        if let original = maybe(text(using: &random), using: &random) {
            row.originalTransactionID = batch.store(original)
        }
        if let price = maybe(String(Int.random(in: 0...9_999, using: &random)) + ".99", using: &random) {
            row.price = batch.store(price)
        }
        if let currency = maybe(["USD", "EUR", "JPY"].randomElement(using: &random) ?? "USD", using: &random) {
            row.currency = batch.store(currency)
        }
        row.isPromotional = .random(using: &random)
        row.termEnds = maybe(instant(using: &random), using: &random)
        return row
    }

    /// `row` spelled out with its texts, for a failure's message.
    private static func shown(_ row: Transaction, in batch: TransactionBatch) -> String {
        DuplicateRules.Field.allCases.map { "\($0)=\($0.value(of: row, in: batch))" }.joined(separator: " ")
    }

    /// Another text, apart in its bytes: in another case, one byte longer, or `é` spelled as
    /// `e` and a combining accent (the same text to Swift's `String` equality).
    private static func otherText(_ text: String, using random: inout Xoshiro) -> String {
        switch Int.random(in: 0..<3, using: &random) {
        case 0 where text.contains("é"): return text.replacingOccurrences(of: "é", with: "e\u{301}")
        case 1 where text.uppercased() != text: return text.uppercased()
        default: return text + "z"
        }
    }

    /// Another instant: a microsecond or a day apart.
    private static func otherInstant(_ instant: Instant, using random: inout Xoshiro) -> Instant {
        let apart: Int64 = [1, -1, 86_400_000_000].randomElement(using: &random) ?? 1
        return Instant(microseconds: instant.microseconds + apart)
    }

    /// None for an instant, or another; an instant for none.
    private static func otherInstantOrNone(_ instant: Instant?, using random: inout Xoshiro) -> Instant? {
        guard let instant else { return self.instant(using: &random) }
        return Bool.random(using: &random) ? nil : otherInstant(instant, using: &random)
    }

    private static func otherCase<Value: CaseIterable & Equatable>(_ value: Value, using random: inout Xoshiro) -> Value
    {
        Value.allCases.filter { $0 != value }.randomElement(using: &random) ?? value
    }

    /// None for a state, or another; a state for none.
    private static func otherStateOrNone(_ state: RenewalState?, using random: inout Xoshiro) -> RenewalState? {
        guard let state else { return RenewalState.allCases.randomElement(using: &random) }
        return Bool.random(using: &random) ? nil : otherCase(state, using: &random)
    }

    /// `row` with `field` changed to another value, a changed text stored in `batch`.
    static func change(
        _ field: DuplicateRules.Field, of row: inout Transaction, in batch: inout TransactionBatch,
        using random: inout Xoshiro
    ) {
        /// Another text for a present one; for an optional one, sometimes none, and a text for none.
        func other(_ stored: TextRef, optional: Bool = false) -> TextRef {
            guard let text = batch.string(stored) else { return batch.store(self.text(using: &random)) }
            if optional && Bool.random(using: &random) { return .absent }
            return batch.store(otherText(text, using: &random))
        }
        switch field {
        case .isPromotional: row.isPromotional.toggle()
        case .termEnds: row.termEnds = otherInstantOrNone(row.termEnds, using: &random)
        case .record(.transactionID): row.transactionID = other(row.transactionID)
        case .record(.originalTransactionID):
            row.originalTransactionID = other(row.originalTransactionID, optional: true)
        case .record(.customerID): row.customerID = other(row.customerID)
        case .record(.productID): row.productID = other(row.productID)
        case .record(.productType): row.productType = otherCase(row.productType, using: &random)
        case .record(.purchaseDate): row.purchaseDate = otherInstant(row.purchaseDate, using: &random)
        case .record(.expiresDate): row.expiresDate = otherInstantOrNone(row.expiresDate, using: &random)
        case .record(.revocationDate): row.revocationDate = otherInstantOrNone(row.revocationDate, using: &random)
        case .record(.ownershipType): row.ownership = otherCase(row.ownership, using: &random)
        case .record(.environment): row.environment = otherCase(row.environment, using: &random)
        case .record(.price): row.price = other(row.price, optional: true)
        case .record(.currency): row.currency = other(row.currency, optional: true)
        case .record(.renewalState): row.renewalState = otherStateOrNone(row.renewalState, using: &random)
        case .record(.gracePeriodExpiresDate):
            row.gracePeriodExpiresDate = otherInstantOrNone(row.gracePeriodExpiresDate, using: &random)
        }
    }

    // MARK: - The ledger's hash

    /// `one` and `other`, whose texts lie in `drawn`, each appended to a new batch as a row
    /// (its texts copied after some text of its own, so no two texts lie at one place), with a
    /// store and a shape drawn apart: the rows as the batch holds them, and the content hash it
    /// took of each.
    private static func hashes(
        _ one: Transaction, _ other: Transaction, of drawn: TransactionBatch, using random: inout Xoshiro
    ) throws -> (Hashed, Hashed) {
        var batch = TransactionBatch()
        for var row in [one, other] {
            _ = batch.store(text(using: &random))
            for text in texts where !row[keyPath: text].isAbsent {
                row[keyPath: text] = batch.store(drawn.string(row[keyPath: text]) ?? "")
            }
            row.storePlatform = Platform.allCases.randomElement(using: &random)
            row.provenance = TransactionProvenance(
                shape: TransactionShape.allCases.randomElement(using: &random) ?? .canonical)
            batch.append(row)
        }
        #expect(batch.hashes.count == 2 && batch.rows.count == 2)
        let first = Hashed(row: batch.rows[0], batch: batch, hash: try #require(batch.hashes.first).content)
        let second = Hashed(row: batch.rows[1], batch: batch, hash: try #require(batch.hashes.last).content)
        return (first, second)
    }

    /// A row as a batch holds it, and the content hash the batch took of it.
    private struct Hashed {
        var row: Transaction
        var batch: TransactionBatch
        var hash: UInt64
    }
}
