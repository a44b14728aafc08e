import GrandfatherTestSupport
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// A typed record spilled and read back is the record written, every value and every
/// fact's source, with its texts byte for byte.
struct MappedSpillTests {
    @Test("400 random records come back exactly, texts and all")
    func roundTrip() throws {
        var random = SplitMix(seed: 34)
        func instant() -> Instant {
            Instant(microseconds: Int64.random(in: -62_135_596_800_000_000...253_402_300_799_999_999, using: &random))
        }
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { Bool.random(using: &random) ? value() : nil }
        var written: [(MappedTransaction, OwnedTransactionTexts)] = []
        let spill = try RowSpill(fieldCount: MappedSpill.fieldCount, for: "test")
        let writer = RowSpill.Writer(spill)
        for line in 0..<400 {
            var provenance = TransactionProvenance(shape: TransactionShape.allCases.randomElement(using: &random)!)
            for fact in TransactionFact.allCases {
                provenance.set(fact, to: maybe(TransactionShape.allCases.randomElement(using: &random)!))
            }
            let record = MappedTransaction(
                productType: ProductType.allCases.randomElement(using: &random)!,
                typeSource: ProductTypeSource.allCases.randomElement(using: &random)!, purchaseDate: instant(),
                expiresDate: maybe(instant()), revocationDate: maybe(instant()),
                ownership: OwnershipType.allCases.randomElement(using: &random)!,
                environment: Environment.allCases.randomElement(using: &random)!,
                renewalState: maybe(RenewalState.allCases.randomElement(using: &random)!),
                gracePeriodExpiresDate: maybe(instant()),
                storePlatform: maybe(Platform.allCases.randomElement(using: &random)!),
                isPromotional: Bool.random(using: &random), provenance: provenance)
            var texts = OwnedTransactionTexts()
            for text in TransactionText.allCases {
                texts[text] = maybe(String(repeating: "é\(line)", count: Int.random(in: 1...90, using: &random)))
            }
            writer.begin(line: line, key: line, version: 0)
            MappedSpill.setValues(of: record, in: writer)
            for text in TransactionText.allCases {
                _ = texts.read(text) { writer.set(MappedSpill.field(of: text), bytes: $0) }
            }
            try writer.end()
            written.append((record, texts))
        }
        try writer.flush()
        var read: [(MappedTransaction, OwnedTransactionTexts)] = []
        try spill.read { row, _, _ in
            read.append((MappedSpill.record(row), OwnedTransactionTexts(MappedSpill.Texts(row: row))))
        }
        #expect(read.count == written.count)
        for (got, expected) in zip(read, written) {
            #expect(got.0 == expected.0)
            #expect(got.1 == expected.1)
        }
    }
}
