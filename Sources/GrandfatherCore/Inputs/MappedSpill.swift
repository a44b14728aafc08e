import GrandfatherEngine

/// How a `MappedTransaction` is kept in a `RowSpill` between a source's two passes: its
/// scalars as words in the first field (instants in microseconds, enums and flags in bits),
/// its texts in the fields after, in `TransactionText` order. Nothing is written as text, so
/// nothing is parsed again when it is read back.
enum MappedSpill {
    /// The fields of a spilled record.
    static let fieldCount = 1 + TransactionText.allCases.count

    /// The field a text is kept in.
    static func field(of text: TransactionText) -> Int { 1 + text.rawValue }

    /// Sets the record's scalars; a writer's record is begun, and its texts set, by the source.
    static func setValues(of record: MappedTransaction, in writer: RowSpill.Writer) {
        var flags = Int64(code(record.productType))
        if record.ownership == .familyShared { flags |= 1 << 2 }
        if record.environment == .sandbox { flags |= 1 << 3 }
        if let state = record.renewalState { flags |= Int64(state.code + 1) << 4 }
        if let platform = record.storePlatform { flags |= Int64(platform.index + 1) << 7 }
        if record.isPromotional { flags |= 1 << 11 }
        if record.expiresDate != nil { flags |= 1 << 12 }
        if record.revocationDate != nil { flags |= 1 << 13 }
        if record.gracePeriodExpiresDate != nil { flags |= 1 << 14 }
        flags |= Int64(record.typeSource.rawValue) << 15
        if record.termEnds != nil { flags |= 1 << 18 }
        var words = SpilledWords()
        words.append(flags)
        words.append(Int64(bitPattern: record.provenance.bits))
        words.append(record.purchaseDate.microseconds)
        if let instant = record.expiresDate { words.append(instant.microseconds) }
        if let instant = record.revocationDate { words.append(instant.microseconds) }
        if let instant = record.gracePeriodExpiresDate { words.append(instant.microseconds) }
        if let instant = record.termEnds { words.append(instant.microseconds) }
        writer.set(0, words: words)
    }

    /// The record a spilled row holds.
    static func record(_ row: RawRow) -> MappedTransaction {
        let words = row.words(0)
        let flags = words[0]
        var next = 3
        func instant(_ bit: Int64) -> Instant? {
            guard flags & (1 << bit) != 0 else { return nil }
            defer { next += 1 }
            return Instant(microseconds: words[next])
        }
        let renewal = Int((flags >> 4) & 0x7)
        let platform = Int((flags >> 7) & 0xF)
        return MappedTransaction(
            productType: productType(Int(flags & 0x3)),
            typeSource: ProductTypeSource(rawValue: UInt8((flags >> 15) & 0x7)) ?? .fallback,
            purchaseDate: Instant(microseconds: words[2]),
            expiresDate: instant(12), revocationDate: instant(13),
            ownership: flags & (1 << 2) != 0 ? .familyShared : .purchased,
            environment: flags & (1 << 3) != 0 ? .sandbox : .production,
            renewalState: renewal == 0 ? nil : renewalState(renewal - 1), gracePeriodExpiresDate: instant(14),
            storePlatform: platform == 0 ? nil : Self.platforms[platform - 1], isPromotional: flags & (1 << 11) != 0,
            provenance: TransactionProvenance(bits: UInt64(bitPattern: words[1])), termEnds: instant(18))
    }

    /// The texts of a spilled row.
    struct Texts: TransactionTexts {
        let row: RawRow

        func read<Result>(_ text: TransactionText, _ body: (Span<UInt8>) -> Result) -> Result? {
            row.withSpan(MappedSpill.field(of: text), body)
        }
    }

    private static let platforms = Platform.allCases

    private static func code(_ type: ProductType) -> UInt8 { type.code }

    private static func productType(_ code: Int) -> ProductType {
        switch code {
        case 0: return .autoRenewable
        case 1: return .nonRenewing
        case 2: return .nonConsumable
        default: return .consumable
        }
    }

    private static func renewalState(_ code: Int) -> RenewalState {
        switch code {
        case 0: return .subscribed
        case 1: return .expired
        case 2: return .revoked
        case 3: return .inBillingRetry
        default: return .inGracePeriod
        }
    }
}
