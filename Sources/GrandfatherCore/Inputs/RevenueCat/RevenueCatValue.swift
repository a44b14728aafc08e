import GrandfatherEngine

/// The value grammar of RevenueCat's exports (FORMATS.md §a, "Observations"): what each
/// export version, dashboard template and warehouse loader writes for a boolean, a list and a
/// time, read from a field's bytes. Each reader accepts every spelling seen in the field and
/// returns `nil` for anything else, so that the source rejects the row with the value quoted
/// rather than guessing.
enum RevenueCatValue {
    /// A boolean: `t`/`f` (before v4, and the customer list), `true`/`false` (v4+),
    /// `TRUE`/`FALSE` (upgraded templates), `True`/`False` (the published example). Read
    /// without regard to case, so `tRUE` is true too: no export writes it, and no other
    /// reading of it is plausible.
    static func bool(_ bytes: Span<UInt8>) -> Bool? {
        switch bytes.count {
        case 1: return spells(bytes, "t") ? true : spells(bytes, "f") ? false : nil
        case 4: return spells(bytes, "true") ? true : nil
        case 5: return spells(bytes, "false") ? false : nil
        default: return nil
        }
    }

    /// A list of identifiers (`entitlement_identifiers`): `{a,b}` (before v4), `["a","b"]`
    /// (v4+), `['a', 'b']` (the published example), `[a, b]` and `[a]` (upgraded templates);
    /// `[]` and `{}` are empty. Items are trimmed of spaces; a quoted item keeps everything
    /// between its quotes, commas included. `nil` for a value without its brackets, with an
    /// empty or unterminated item, or with text after the closing bracket.
    static func list(_ bytes: Span<UInt8>) -> [String]? {
        guard bytes.count >= 2 else { return nil }
        let close: UInt8
        switch bytes[0] {
        case UInt8(ascii: "["): close = UInt8(ascii: "]")
        case UInt8(ascii: "{"): close = UInt8(ascii: "}")
        default: return nil
        }
        guard bytes[bytes.count - 1] == close else { return nil }
        let end = bytes.count - 1
        var items: [String] = []
        var index = skipSpaces(bytes, from: 1, to: end)
        if index == end { return items }
        while true {
            index = skipSpaces(bytes, from: index, to: end)
            guard index < end else { return nil }
            var itemEnd: Int
            let first = bytes[index]
            if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
                var closing = index + 1
                while closing < end, bytes[closing] != first { closing += 1 }
                guard closing < end else { return nil }
                items.append(bytes.text(from: index + 1, to: closing))
                itemEnd = skipSpaces(bytes, from: closing + 1, to: end)
            } else {
                itemEnd = index
                while itemEnd < end, bytes[itemEnd] != UInt8(ascii: ",") { itemEnd += 1 }
                var last = itemEnd
                while last > index, isSpace(bytes[last - 1]) { last -= 1 }
                guard last > index else { return nil }
                items.append(bytes.text(from: index, to: last))
            }
            if itemEnd == end { return items }
            guard bytes[itemEnd] == UInt8(ascii: ",") else { return nil }
            index = itemEnd + 1
        }
    }

    /// A Scheduled Data Export time: `YYYY-MM-DD HH:MM:SS` in UTC (FORMATS.md §a: "all times
    /// UTC"), with hours of one or two digits (`2023-12-12 1:35:31`, from upgraded
    /// templates) and an optional fraction (digits finer than a microsecond are dropped); a
    /// `T` in place of the space is read alike. `nil` for anything else, and for an instant
    /// outside `Instant.supported`.
    static func exportTime(_ bytes: Span<UInt8>) -> Instant? {
        guard let fields = fixedFields(bytes) ?? scannedFields(bytes),
            (1...12).contains(fields.month), fields.day >= 1,
            fields.day <= CivilDate.daysInMonth(year: fields.year, month: fields.month),
            fields.hour <= 23, fields.minute <= 59, fields.second <= 59
        else { return nil }
        let days = CivilDate.toDays(year: fields.year, month: fields.month, day: fields.day)
        let seconds = days * 86_400 + fields.hour * 3600 + fields.minute * 60 + fields.second
        let instant = Instant(microseconds: seconds * 1_000_000 + fields.micros)
        return Instant.supported.contains(instant) ? instant : nil
    }

    /// The parts of an export time, not yet checked for range.
    private typealias TimeFields = (
        year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64, micros: Int64
    )

    /// `YYYY-MM-DD HH:MM:SS` (or with `T`), the form every current export writes, read a
    /// word at a time as canonical times are (`TimestampParser.calendarFields`): an export row
    /// has several times. `nil` for any other form, which `scannedFields` then reads.
    private static func fixedFields(_ bytes: Span<UInt8>) -> TimeFields? {
        guard bytes.count == 19, let fields = TimestampParser.calendarFields(bytes),
            fields.between == UInt8(ascii: " ") || fields.between == UInt8(ascii: "T")
        else { return nil }
        return (fields.year, fields.month, fields.day, fields.hour, fields.minute, fields.second, 0)
    }

    /// Any form `exportTime` reads, scanned a part at a time.
    private static func scannedFields(_ bytes: Span<UInt8>) -> TimeFields? {
        var index = 0
        guard let year = digits(bytes, &index, count: 4), expect(bytes, &index, UInt8(ascii: "-")),
            let month = digits(bytes, &index, count: 2), expect(bytes, &index, UInt8(ascii: "-")),
            let day = digits(bytes, &index, count: 2),
            expect(bytes, &index, UInt8(ascii: " ")) || expect(bytes, &index, UInt8(ascii: "T")),
            let hour = digits(bytes, &index, count: 1...2), expect(bytes, &index, UInt8(ascii: ":")),
            let minute = digits(bytes, &index, count: 2), expect(bytes, &index, UInt8(ascii: ":")),
            let second = digits(bytes, &index, count: 2),
            let micros = fraction(bytes, &index, places: 6), index == bytes.count
        else { return nil }
        return (year, month, day, hour, minute, second, micros)
    }

    /// A time as a RevenueCat file may write it: the export form of `exportTime(_:)`, else
    /// one of the canonical forms of SPEC §2 that carry their zone (ISO-8601 with `Z` or an
    /// offset, epoch milliseconds). A zone-less time is UTC here, whatever the policy's
    /// `default_time_zone`: RevenueCat documents its times as UTC.
    static func time(_ bytes: Span<UInt8>) -> Instant? {
        if let instant = exportTime(bytes) { return instant }
        guard
            case .success(let instant) = TimestampParser(defaultZone: nil).parse(text(bytes))
        else { return nil }
        return instant
    }

    /// Epoch milliseconds as the customer list writes them: integral (`1666670198288`) or
    /// float-formatted (`1666670198288.0`, `1666670198288.5`); digits finer than a
    /// microsecond are dropped. `nil` for anything else (an exponent, a sign, overflow) and
    /// for an instant outside `Instant.supported`.
    static func epochMilliseconds(_ bytes: Span<UInt8>) -> Instant? {
        var index = 0
        var milliseconds: Int64 = 0
        while index < bytes.count, bytes[index] &- 0x30 <= 9 {
            let (times10, overflow) = milliseconds.multipliedReportingOverflow(by: 10)
            guard !overflow, times10 <= Int64.max / 1000 - 9 else { return nil }
            milliseconds = times10 + Int64(bytes[index] &- 0x30)
            index += 1
        }
        guard index > 0 else { return nil }
        guard let micros = fraction(bytes, &index, places: 3), index == bytes.count else { return nil }
        let instant = Instant(microseconds: milliseconds * 1000 + micros)
        return Instant.supported.contains(instant) ? instant : nil
    }

    // MARK: - Bytes

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    private static func skipSpaces(_ bytes: Span<UInt8>, from start: Int, to end: Int) -> Int {
        var index = start
        while index < end, isSpace(bytes[index]) { index += 1 }
        return index
    }

    /// A whole number of up to 18 digits, with an optional minus sign (`renewal_number`);
    /// `nil` for anything else.
    static func wholeNumber(_ bytes: Span<UInt8>) -> Int? {
        var index = 0
        let negative = bytes.count > 1 && bytes[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        guard bytes.count - index >= 1, bytes.count - index <= 18 else { return nil }
        var value = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
            index += 1
        }
        return negative ? -value : value
    }

    /// The bytes as text, for a message or a lookup; invalid UTF-8 is repaired.
    static func text(_ bytes: Span<UInt8>) -> String {
        bytes.text(from: 0, to: bytes.count)
    }

    /// Whether the bytes spell `name` (lowercase ASCII), their letters in any case: a value
    /// told apart without making a string of it. Only letters fold: `| 0x20` would make `_` a DEL.
    static func spells(_ bytes: Span<UInt8>, _ name: StaticString) -> Bool {
        guard bytes.count == name.utf8CodeUnitCount else { return false }
        let expected = name.utf8Start
        for index in 0..<bytes.count {
            var byte = bytes[index]
            if byte &- UInt8(ascii: "A") < 26 { byte |= 0x20 }
            guard byte == expected[index] else { return false }
        }
        return true
    }

    private static func expect(_ bytes: Span<UInt8>, _ index: inout Int, _ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// An optional fraction at `index`, `.` and at least one digit, as a whole number of
    /// `places` decimal places (digits past them dropped): 0 when there is none, `nil` for a
    /// `.` without digits.
    private static func fraction(_ bytes: Span<UInt8>, _ index: inout Int, places: Int) -> Int64? {
        guard expect(bytes, &index, UInt8(ascii: ".")) else { return 0 }
        var value: Int64 = 0
        var count = 0
        while index < bytes.count, bytes[index] &- 0x30 <= 9 {
            if count < places { value = value * 10 + Int64(bytes[index] &- 0x30) }
            count += 1
            index += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<max(count, places) { value *= 10 }
        return value
    }

    private static func digits(_ bytes: Span<UInt8>, _ index: inout Int, count: Int) -> Int64? {
        digits(bytes, &index, count: count...count)
    }

    /// Between `count.lowerBound` and `count.upperBound` decimal digits, as a number.
    private static func digits(_ bytes: Span<UInt8>, _ index: inout Int, count: ClosedRange<Int>) -> Int64? {
        var value: Int64 = 0
        var read = 0
        while read < count.upperBound, index < bytes.count, bytes[index] &- 0x30 <= 9 {
            value = value * 10 + Int64(bytes[index] &- 0x30)
            index += 1
            read += 1
        }
        return read >= count.lowerBound ? value : nil
    }
}
