import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// A mapped time column's values, each form read as SPEC §2's instant (issue 52).
@Suite struct TimeFormTests {
    static let berlin = WallClockZone(identifier: "Europe/Berlin")
    static let newYork = WallClockZone(identifier: "America/New_York")

    @Test(
        arguments: [
            (TimeForm.epochSeconds, "1741107600", nil, "2025-03-04T17:00:00Z"),
            (.epochMilliseconds, "1741107600250", nil, "2025-03-04T17:00:00.250Z"),
            (.iso8601, "2025-03-04T18:00:00+01:00", nil, "2025-03-04T17:00:00Z"),
            (.iso8601, "2025-03-04T18:00:00", "Europe/Berlin", "2025-03-04T17:00:00Z"),
            (.dateTime, "2025-03-04 18:00:00", "Europe/Berlin", "2025-03-04T17:00:00Z"),
            (.dateTime, "2025-07-04 18:00", "Europe/Berlin", "2025-07-04T16:00:00Z"),
            (.date, "2025-03-04", "America/New_York", "2025-03-04T05:00:00Z"),
            (.usDate, "3/4/2025", "America/New_York", "2025-03-04T05:00:00Z"),
            (.usDate, "03/09/2025 12:00", "America/New_York", "2025-03-09T16:00:00Z"),
            (.dayFirstDate, "04/03/2025 18:00:00", "Europe/Berlin", "2025-03-04T17:00:00Z"),
        ] as [(TimeForm, String, String?, String)])
    func eachFormReadsAsAnInstant(form: TimeForm, text: String, zone: String?, expected: String) {
        let zone = zone.flatMap(WallClockZone.init(identifier:))
        #expect(form.canonical(text, zone: zone) == .success(expected))
    }

    @Test func aValueNotInItsFormIsARowsReason() {
        #expect(
            TimeForm.epochSeconds.canonical("17411076O0", zone: nil)
                == .failure(TimeForm.Problem(reason: "\"17411076O0\" is not whole seconds since 1970")))
        // Too many seconds for microseconds: refused, never an overflow.
        #expect(TimeForm.epochSeconds.canonical("999999999999999", zone: nil).isFailure)
        #expect(TimeForm.epochSeconds.canonical("-9223372036854775808", zone: nil).isFailure)
        #expect(TimeForm.epochMilliseconds.canonical("9223372036854775807", zone: nil).isFailure)
        #expect(TimeForm.epochSeconds.canonical("99999999999999999999", zone: nil).isFailure)
        #expect(TimeForm.dateTime.canonical("2025-03-04T18:00:00", zone: Self.berlin).isFailure)
        #expect(TimeForm.usDate.canonical("13/04/2025", zone: Self.berlin).isFailure)
        #expect(TimeForm.dayFirstDate.canonical("4-3-2025", zone: Self.berlin).isFailure)
        #expect(
            TimeForm.iso8601.canonical("2025-03-04T18:00:00", zone: nil)
                == .failure(
                    TimeForm.Problem(
                        reason: "\"2025-03-04T18:00:00\" states no zone, and the mapping names none for it")))
    }
}

extension Result {
    fileprivate var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
