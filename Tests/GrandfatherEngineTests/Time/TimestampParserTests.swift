import Testing

@testable import GrandfatherEngine

/// SPEC §8.6: the timestamp syntax, and zone-less wall times in `default_time_zone`.
struct TimestampParserTests {
    /// 2024-03-01T00:00:00Z, the cutover of most fixtures.
    static let cutover: Int64 = 1_709_251_200_000_000

    static let utcOnly = TimestampParser(defaultZone: nil)

    static func losAngeles() throws -> TimestampParser {
        let zone = try #require(WallClockZone(identifier: "America/Los_Angeles"))
        return TimestampParser(defaultZone: zone)
    }

    static let acceptedForms: [(String, Int64)] = [
        ("2024-03-01T00:00:00Z", cutover),
        ("2024-03-01T00:00:00z", cutover),
        ("2024-03-01t00:00:00Z", cutover),
        ("2024-03-01t00:00:00z", cutover),
        ("2024-03-01T01:00:00+01:00", cutover),
        ("2024-03-01T01:00:00+0100", cutover),
        ("2024-03-01T01:00:00+01", cutover),
        ("2024-02-29T19:00:00-05:00", cutover),
        ("2024-02-29T19:00:00-0500", cutover),
        ("2024-02-29T19:00:00-05", cutover),
        ("2024-02-29T14:30:00-09:30", cutover),
        ("2024-03-01T05:45:00+05:45", cutover),
        ("2024-03-01T00:00:00+00:00", cutover),
        ("2024-03-01T00:00:00-00:00", cutover),
        ("2024-03-01T23:59:00+23:59", cutover),
        ("2024-02-29T00:01:00-23:59", cutover),
        ("2024-02-29T23:59:59Z", cutover - 1_000_000),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59Z", -1_000_000),
        // Fractions of 1 to 9 digits; digits past the microsecond are chosen so that
        // truncating and rounding agree.
        ("2024-03-01T00:00:00.5Z", cutover + 500_000),
        ("2024-03-01T00:00:00.12Z", cutover + 120_000),
        ("2024-03-01T00:00:00.123Z", cutover + 123_000),
        ("2024-03-01T00:00:00.1234Z", cutover + 123_400),
        ("2024-03-01T00:00:00.12345Z", cutover + 123_450),
        ("2024-03-01T00:00:00.123456Z", cutover + 123_456),
        ("2024-03-01T00:00:00.1234561Z", cutover + 123_456),
        ("2024-03-01T00:00:00.12345640Z", cutover + 123_456),
        ("2024-03-01T00:00:00.123456000Z", cutover + 123_456),
        ("2024-03-01T00:00:00.000000001Z", cutover),
        ("2024-03-01T01:00:00.250+01:00", cutover + 250_000),
        ("2024-02-29T23:59:59.999-00:00", cutover - 1_000),
        // Epoch milliseconds.
        ("1709251200000", cutover),
        ("1709251200001", cutover + 1_000),
        ("0", 0),
        ("1", 1_000),
        ("-1", -1_000),
        ("-86400000", -86_400_000_000),
        ("-1709251200000", -cutover),
    ]

    @Test("every accepted form, with its instant in microseconds", arguments: acceptedForms)
    func accepted(text: String, microseconds: Int64) throws {
        #expect(Self.utcOnly.parse(text) == .success(Instant(microseconds: microseconds)))
        // A zone is only used when the text has none.
        #expect(try Self.losAngeles().parse(text) == .success(Instant(microseconds: microseconds)))
    }

    @Test(
        "every rejected form, with or without a default zone",
        arguments: [
            "2024-03-01T00:00Z",  // no seconds
            "2024-03-01T00:00+01:00",
            "2024-03-01T00:00",
            "2024-03-01",  // date only
            "2024-03-01Z",
            "2024-03-01 00:00:00Z",  // space separator
            "2024-03-01 00:00:00",
            "2024-03-01T24:00:00Z",  // hour 24
            "2024-03-01T00:00:60Z",  // second 60
            "2024-03-01T00:60:00Z",
            "2024-03-01T00:00:00+24:00",  // offsets of 24 h or more
            "2024-03-01T00:00:00-24:00",
            "2024-03-01T00:00:00+2400",
            "2024-03-01T00:00:00+24",
            "2024-03-01T00:00:00+01:60",
            "1.5",  // epoch ms with a fraction or exponent
            "1e3",
            "1709251200000.0",
            "2024-02-30T00:00:00Z",  // no such day
            "2023-02-29T00:00:00Z",
            "2024-04-31T00:00:00Z",
            "2024-13-01T00:00:00Z",
            "2024-00-01T00:00:00Z",
            "2024-03-00T00:00:00Z",
            "2024-03-01T00:00:00Zjunk",  // trailing text
            "2024-03-01T00:00:00Z ",
            " 2024-03-01T00:00:00Z",
            "2024-03-01T00:00:00.Z",
            "2024-03-01T00:00:00.",
            "2024-03-01T00:00:00+1",
            "2024-03-01T00:00:00+01:0",
            "2024-03-01T00:00:00+01:00:00",
            "2024-03-01T00:00:00 +01:00",
            "2024-03-01T00:00:00GMT",
            "2024-3-1T00:00:00Z",
            "2024-03-01T0:00:00Z",
            "+1709251200000",
            "-",
            "",
            "abc",
            "17092512000 00",
            "\u{FF12}024-03-01T00:00:00Z",
        ])
    func rejected(text: String) throws {
        guard case .failure = Self.utcOnly.parse(text) else {
            Issue.record("accepted \"\(text)\"")
            return
        }
        guard case .failure = try Self.losAngeles().parse(text) else {
            Issue.record("accepted \"\(text)\" with a default zone")
            return
        }
    }

    /// The fixed part read byte by byte, as the parser once did: the word-at-a-time reader must
    /// accept exactly these bytes.
    static func fixedPartIsWellFormed(_ bytes: [UInt8]) -> Bool {
        let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        return digits.allSatisfy { (0x30...0x39).contains(bytes[$0]) } && bytes[4] == UInt8(ascii: "-")
            && bytes[7] == UInt8(ascii: "-") && (bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"))
            && bytes[13] == UInt8(ascii: ":") && bytes[16] == UInt8(ascii: ":")
    }

    @Test("every byte value at every place of YYYY-MM-DDTHH:MM:SS is read as a byte-wise reader reads it")
    func fixedPartByteByByte() {
        let valid = Array("2024-01-11T11:11:11Z".utf8)
        for place in 0..<19 {
            for value in UInt8.min...UInt8.max {
                var bytes = valid
                bytes[place] = value
                let result = bytes.withUnsafeBytes { Self.utcOnly.parse($0) }
                guard Self.fixedPartIsWellFormed(bytes) else {
                    #expect(result == .failure(.malformed), "byte \(value) at \(place)")
                    continue
                }
                // A digit changed into another digit: read as written, or out of range.
                #expect(result == Self.expected(bytes), "byte \(value) at \(place)")
            }
        }
    }

    /// What a well-formed `YYYY-MM-DDTHH:MM:SSZ` means, its digits read one by one.
    static func expected(_ bytes: [UInt8]) -> Result<Instant, TimestampError> {
        func number(_ range: Range<Int>) -> Int64 { range.reduce(0) { $0 * 10 + Int64(bytes[$1] - 0x30) } }
        let (year, month, day) = (number(0..<4), number(5..<7), number(8..<10))
        let (hour, minute, second) = (number(11..<13), number(14..<16), number(17..<19))
        guard (1...12).contains(month), (1...CivilDate.daysInMonth(year: year, month: month)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return .failure(.fieldOutOfRange) }
        let seconds = CivilDate.toDays(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return .success(Instant(microseconds: seconds * 1_000_000))
    }

    @Test("a zone-less timestamp is an error without a default zone")
    func zonelessWithoutDefault() {
        for text in ["2024-03-01T00:00:00", "2024-03-01T00:00:00.5", "2024-11-03T01:30:00"] {
            guard case .failure = Self.utcOnly.parse(text) else {
                Issue.record("accepted \"\(text)\" without a zone")
                continue
            }
        }
    }

    @Test(
        "a zone-less timestamp is wall time in the default zone",
        arguments: [
            // PST (UTC−8) in winter, PDT (UTC−7) in summer.
            ("2024-03-01T00:00:00", Int64(1_709_280_000_000_000)),
            ("2024-03-01T00:00:00.5", 1_709_280_000_500_000),
            ("2024-03-01t00:00:00", 1_709_280_000_000_000),
            ("2024-07-01T00:00:00", 1_719_817_200_000_000),
            // 01:30 happens twice on 2024-11-03: the earlier offset (PDT) gives 08:30Z.
            ("2024-11-03T01:30:00", 1_730_622_600_000_000),
            // 02:30 never happens on 2024-03-10: the offset before the jump (PST) gives 10:30Z.
            ("2024-03-10T02:30:00", 1_710_066_600_000_000),
            // Just outside the transitions.
            ("2024-11-03T00:59:59", 1_730_620_799_000_000),
            ("2024-11-03T02:00:00", 1_730_628_000_000_000),
            ("2024-03-10T01:59:59", 1_710_064_799_000_000),
            ("2024-03-10T03:00:00", 1_710_064_800_000_000),
        ])
    func zonelessInLosAngeles(text: String, microseconds: Int64) throws {
        #expect(try Self.losAngeles().parse(text) == .success(Instant(microseconds: microseconds)))
    }

    @Test("a zone with a half-hour offset")
    func halfHourOffset() throws {
        let zone = try #require(WallClockZone(identifier: "America/St_Johns"))
        let parser = TimestampParser(defaultZone: zone)
        // Newfoundland Standard Time is UTC−03:30.
        #expect(parser.parse("2024-02-29T20:30:00") == .success(Instant(microseconds: Self.cutover)))
    }

    @Test("the canonical IANA name Asia/Kolkata is a zone (UTC+05:30)")
    func kolkata() throws {
        let zone = try #require(WallClockZone(identifier: "Asia/Kolkata"))
        let parser = TimestampParser(defaultZone: zone)
        #expect(parser.parse("2024-03-01T05:30:00") == .success(Instant(microseconds: Self.cutover)))
    }

    @Test("IANA zone names resolve; unknown names and abbreviations do not")
    func zones() {
        #expect(WallClockZone(identifier: "America/Los_Angeles")?.identifier == "America/Los_Angeles")
        #expect(WallClockZone(identifier: "Europe/Paris") != nil)
        #expect(WallClockZone(identifier: "Mars/Olympus_Mons") == nil)
        #expect(WallClockZone(identifier: "America/Nowhere") == nil)
        #expect(WallClockZone(identifier: "") == nil)
        #expect(WallClockZone(identifier: "PST") == nil)
    }
}
