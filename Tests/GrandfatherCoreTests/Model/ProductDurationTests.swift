import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// RevenueCat's `product_duration` (ISO-8601 years, months, weeks, days) read, and added to a
/// purchase as a calendar adds it.
struct ProductDurationTests {
    static func instant(_ text: String) -> Instant? {
        try? TimestampParser(defaultZone: nil).parse(text).get()
    }

    /// `text` read as a duration.
    static func duration(_ text: String) -> ProductDuration? {
        let bytes = Array(text.utf8)
        return ProductDuration(iso8601: bytes.span)
    }

    @Test(
        "durations of whole units read; anything else does not",
        arguments: [
            ("P1M", ProductDuration(months: 1, days: 0)), ("P1Y", ProductDuration(months: 12, days: 0)),
            ("P2W", ProductDuration(months: 0, days: 14)), ("P3D", ProductDuration(months: 0, days: 3)),
            ("P1Y6M", ProductDuration(months: 18, days: 0)), ("P1M1W2D", ProductDuration(months: 1, days: 9)),
            ("P", nil), ("P1", nil), ("PT1H", nil), ("P1.5M", nil), ("P1M1Y", nil), ("P1MM", nil), ("1M", nil),
            ("p1m", nil), ("P99999Y", nil), ("", nil),
        ] as [(String, ProductDuration?)])
    func parse(text: String, duration: ProductDuration?) {
        #expect(Self.duration(text) == duration)
    }

    @Test(
        "a term ends a calendar span after the purchase, a short month holding the day at its last",
        arguments: [
            ("P1M", "2024-01-31T10:00:00Z", "2024-02-29T10:00:00Z"),
            ("P1M", "2023-01-31T10:00:00Z", "2023-02-28T10:00:00Z"),
            ("P1Y", "2024-02-29T00:00:00.5Z", "2025-02-28T00:00:00.5Z"),
            ("P2W", "2024-12-25T23:59:59Z", "2025-01-08T23:59:59Z"),
            ("P1M3D", "2024-03-31T00:00:00Z", "2024-05-03T00:00:00Z"),
            ("P1Y", "9999-06-01T00:00:00Z", "9999-12-31T23:59:59.999999Z"),
        ])
    func end(duration: String, purchased: String, ends: String) throws {
        let term = try #require(Self.duration(duration))
        let start = try #require(Self.instant(purchased))
        #expect(term.end(from: start) == Self.instant(ends))
    }
}
