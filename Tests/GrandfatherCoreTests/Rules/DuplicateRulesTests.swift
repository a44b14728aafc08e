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
            let one = Self.draw(using: &random)
            var other = one
            Self.change(field, of: &other, using: &random)
            let (first, second) = try Self.hashes(one, other, using: &random)
            #expect(!DuplicateRules.sameContent(one, other), "\(field): \(one) against \(other)")
            #expect(first != second, "\(field): \(one) against \(other)")
        }
    }

    @Test("a copy is the same content, wherever its bytes lie and whatever its provenance or store says")
    func copiesAreTheSame() throws {
        var random = Xoshiro(seed: (23, 8, 0, 2))
        for _ in 0..<2_000 {
            let one = Self.draw(using: &random)
            let (first, second) = try Self.hashes(one, one, using: &random)
            #expect(DuplicateRules.sameContent(one, one))
            #expect(first == second, "\(one)")
        }
    }

    @Test("over drawn pairs, hashes are equal exactly when the rule says same")
    func hashesAgreeWithTheRule() throws {
        var random = Xoshiro(seed: (23, 8, 0, 3))
        var outcomes = (same: 0, apart: 0)
        for _ in 0..<5_000 {
            let one = Self.draw(using: &random)
            var other = one
            // None, one, or a few fields changed (a field changed twice may come back).
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let field = DuplicateRules.Field.allCases.randomElement(using: &random) ?? .price
                Self.change(field, of: &other, using: &random)
            }
            let same = DuplicateRules.sameContent(one, other)
            let (first, second) = try Self.hashes(one, other, using: &random)
            #expect((first == second) == same, "\(one) against \(other)")
            if same { outcomes.same += 1 } else { outcomes.apart += 1 }
        }
        #expect(outcomes.same > 500 && outcomes.apart > 2_000, "the pairs exercise both: \(outcomes)")
    }

    /// Every stored property of `Transaction` is a field of the rule, or named here as no
    /// content: a property added to the transaction must be put on one side.
    @Test func everyPropertyOfATransactionIsAFieldOrNamedAsNone() {
        var random = Xoshiro(seed: (23, 8, 0, 4))
        var batch = TransactionBatch()
        let content = Self.draw(using: &random)
        let fields = DuplicateRules.Field.allCases.map { "\($0)" }
        let properties = Mirror(reflecting: Self.transaction(content, in: &batch)).children.compactMap(\.label)
        #expect(Set(properties).subtracting(["storePlatform", "provenance"]) == Set(fields))
        let plain = Mirror(reflecting: content).children.compactMap(\.label)
        #expect(plain == fields, "DuplicateRules.Content holds the fields, in Field's order")
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

    static func draw(using random: inout Xoshiro) -> DuplicateRules.Content {
        DuplicateRules.Content(
            transactionID: text(using: &random), originalTransactionID: maybe(text(using: &random), using: &random),
            customerID: text(using: &random), productID: text(using: &random),
            productType: ProductType.allCases.randomElement(using: &random) ?? .consumable,
            purchaseDate: instant(using: &random), expiresDate: maybe(instant(using: &random), using: &random),
            revocationDate: maybe(instant(using: &random), using: &random),
            ownership: OwnershipType.allCases.randomElement(using: &random) ?? .purchased,
            environment: Environment.allCases.randomElement(using: &random) ?? .production,
            price: maybe(String(Int.random(in: 0...9_999, using: &random)) + ".99", using: &random),
            currency: maybe(["USD", "EUR", "JPY"].randomElement(using: &random) ?? "USD", using: &random),
            renewalState: maybe(RenewalState.allCases.randomElement(using: &random) ?? .subscribed, using: &random),
            gracePeriodExpiresDate: maybe(instant(using: &random), using: &random),
            isPromotional: .random(using: &random),
            termEnds: maybe(instant(using: &random), using: &random))
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

    /// None for a text, or another; a text for none.
    private static func otherTextOrNone(_ text: String?, using random: inout Xoshiro) -> String? {
        guard let text else { return self.text(using: &random) }
        return Bool.random(using: &random) ? nil : otherText(text, using: &random)
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

    /// `content` with `field` changed to another value.
    static func change(
        _ field: DuplicateRules.Field, of content: inout DuplicateRules.Content, using random: inout Xoshiro
    ) {
        switch field {
        case .transactionID: content.transactionID = otherText(content.transactionID, using: &random)
        case .originalTransactionID:
            content.originalTransactionID = otherTextOrNone(content.originalTransactionID, using: &random)
        case .customerID: content.customerID = otherText(content.customerID, using: &random)
        case .productID: content.productID = otherText(content.productID, using: &random)
        case .productType: content.productType = otherCase(content.productType, using: &random)
        case .purchaseDate: content.purchaseDate = otherInstant(content.purchaseDate, using: &random)
        case .expiresDate: content.expiresDate = otherInstantOrNone(content.expiresDate, using: &random)
        case .revocationDate: content.revocationDate = otherInstantOrNone(content.revocationDate, using: &random)
        case .ownership: content.ownership = otherCase(content.ownership, using: &random)
        case .environment: content.environment = otherCase(content.environment, using: &random)
        case .price: content.price = otherTextOrNone(content.price, using: &random)
        case .currency: content.currency = otherTextOrNone(content.currency, using: &random)
        case .renewalState: content.renewalState = otherStateOrNone(content.renewalState, using: &random)
        case .gracePeriodExpiresDate:
            content.gracePeriodExpiresDate = otherInstantOrNone(content.gracePeriodExpiresDate, using: &random)
        case .isPromotional: content.isPromotional.toggle()
        case .termEnds: content.termEnds = otherInstantOrNone(content.termEnds, using: &random)
        }
    }

    // MARK: - The ledger's hash

    /// `content` as a transaction of `batch`, its texts stored there, with a store and a
    /// provenance that are no content.
    private static func transaction(
        _ content: DuplicateRules.Content, in batch: inout TransactionBatch,
        store: Platform? = nil, provenance: TransactionProvenance = TransactionProvenance(shape: .canonical)
    ) -> Transaction {
        func stored(_ text: String?) -> TextRef { text.map { batch.store($0) } ?? .absent }
        return Transaction(
            transactionID: stored(content.transactionID), originalTransactionID: stored(content.originalTransactionID),
            customerID: stored(content.customerID), productID: stored(content.productID),
            productType: content.productType, purchaseDate: content.purchaseDate, expiresDate: content.expiresDate,
            revocationDate: content.revocationDate, ownership: content.ownership, environment: content.environment,
            price: stored(content.price), currency: stored(content.currency), renewalState: content.renewalState,
            gracePeriodExpiresDate: content.gracePeriodExpiresDate, storePlatform: store,
            isPromotional: content.isPromotional, provenance: provenance, termEnds: content.termEnds)
    }

    /// The content hashes a batch takes of `one` and `other`, each appended as a row (`other`
    /// after some text of its own, so no two texts lie at one place), each with a store and a
    /// shape drawn apart.
    private static func hashes(
        _ one: DuplicateRules.Content, _ other: DuplicateRules.Content, using random: inout Xoshiro
    ) throws -> (UInt64, UInt64) {
        var batch = TransactionBatch()
        for content in [one, other] {
            _ = batch.store(text(using: &random))
            let shape = TransactionShape.allCases.randomElement(using: &random) ?? .canonical
            let row = transaction(
                content, in: &batch, store: Platform.allCases.randomElement(using: &random),
                provenance: TransactionProvenance(shape: shape))
            batch.append(row)
        }
        #expect(batch.hashes.count == 2)
        return (try #require(batch.hashes.first).content, try #require(batch.hashes.last).content)
    }
}
