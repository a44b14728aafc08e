import Testing

@testable import GrandfatherEngine

/// Instants print as ISO-8601 in UTC, the form every report uses.
struct InstantTests {
    @Test(
        "ISO-8601 in UTC, with a fraction only when there is one",
        arguments: [
            (Int64(0), "1970-01-01T00:00:00Z"),
            (1_709_251_200_000_000, "2024-03-01T00:00:00Z"),
            (1_709_251_199_000_000, "2024-02-29T23:59:59Z"),
            (1_717_200_000_000_000, "2024-06-01T00:00:00Z"),
            (1_500_000, "1970-01-01T00:00:01.500Z"),
            (1_000_001, "1970-01-01T00:00:01.000001Z"),
            (123_456, "1970-01-01T00:00:00.123456Z"),
            (120_000, "1970-01-01T00:00:00.120Z"),
            (1_000, "1970-01-01T00:00:00.001Z"),
            (1, "1970-01-01T00:00:00.000001Z"),
            // Before the epoch.
            (-1, "1969-12-31T23:59:59.999999Z"),
            (-1_000, "1969-12-31T23:59:59.999Z"),
            (-1_000_000, "1969-12-31T23:59:59Z"),
            (-86_400_000_000, "1969-12-31T00:00:00Z"),
            (-500_000, "1969-12-31T23:59:59.500Z"),
            (-62_135_596_800_000_000, "0001-01-01T00:00:00Z"),
            (253_402_300_799_000_000, "9999-12-31T23:59:59Z"),
        ])
    func iso8601(microseconds: Int64, text: String) {
        let instant = Instant(microseconds: microseconds)
        #expect(instant.iso8601 == text)
        #expect(instant.description == text)
    }

    @Test(
        "the bytes reports and the snapshot write are the ISO-8601 string, in years 0000-9999",
        arguments: [
            Int64(0), 1, -1, 1_000, -1_000, 1_500_000, 123_456, -500_000, 1_709_251_199_000_000,
            -62_167_219_200_000_000, -62_167_219_200_000_001, 253_402_300_799_999_999, 253_402_300_800_000_000,
            .min, .max,
        ])
    func writtenBytes(microseconds: Int64) {
        // Every fraction width and a spread of dates, from the edges given inwards.
        for step in stride(from: Int64(0), to: 4_000, by: 1) {
            let value = microseconds.addingReportingOverflow(step * 7_777_777_777 * (microseconds > 0 ? -1 : 1))
            let instant = Instant(microseconds: value.overflow ? microseconds : value.partialValue)
            let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Instant.maximumISO8601Length) {
                buffer in
                buffer.baseAddress.flatMap { instant.writeISO8601(into: $0) }.map { Array(buffer[0..<$0]) }
            }
            let year = Instant.fields(instant.microseconds).year
            if (0...9999).contains(year) {
                #expect(written.map { String(decoding: $0, as: UTF8.self) } == instant.iso8601)
            } else {
                #expect(written == nil, "\(instant.iso8601)")
            }
        }
    }

    @Test("whole seconds and microseconds agree")
    func seconds() {
        #expect(Instant(seconds: 1_709_251_200) == Instant(microseconds: 1_709_251_200_000_000))
        #expect(Instant(seconds: -1) == Instant(microseconds: -1_000_000))
    }

    @Test("instants order by time")
    func order() {
        #expect(Instant(microseconds: -1) < Instant(microseconds: 0))
        #expect(Instant(seconds: 1) < Instant(microseconds: 1_000_001))
        #expect(!(Instant(seconds: 1) < Instant(seconds: 1)))
    }

    @Test("adding seconds moves the instant and stays within years 0001-9999 instead of trapping")
    func adding() {
        let cutover = Instant(seconds: 1_709_251_200)
        #expect(cutover.adding(seconds: -86_400) == Instant(seconds: 1_709_164_800))
        #expect(cutover.adding(seconds: 30 * 86_400).iso8601 == "2024-03-31T00:00:00Z")
        #expect(cutover.adding(seconds: .max) == Instant.supported.upperBound)
        #expect(cutover.adding(seconds: .min) == Instant.supported.lowerBound)
        #expect(Instant(microseconds: .max - 10).adding(seconds: 1) == Instant.supported.upperBound)
        #expect(Instant.supported.upperBound.iso8601 == "9999-12-31T23:59:59.999999Z")
        #expect(Instant.supported.lowerBound.iso8601 == "0001-01-01T00:00:00Z")
        let late = try? TimestampParser(defaultZone: nil).parse("9999-12-01T00:00:00Z").get()
        #expect(late?.adding(seconds: 365 * 86_400) == Instant.supported.upperBound)
    }
}
