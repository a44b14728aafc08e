import Foundation

/// An IANA time zone that turns zone-less wall times into instants (SPEC §8.6).
///
/// An ambiguous wall time (clocks set back) takes the earlier offset, i.e. the earlier
/// instant; a wall time that never happened (clocks set forward) is read with the offset
/// in force before the jump, as Python's `zoneinfo` does with `fold=0`.
public struct WallClockZone: Sendable, Equatable {
    /// The IANA identifier, as the policy names it.
    let identifier: String
    private let zone: TimeZone

    /// `nil` when the identifier is not a known IANA zone.
    public init?(identifier: String) {
        // Foundation also accepts abbreviations and GMT offsets; the policy asks for an IANA name.
        guard identifier.contains("/") || identifier == "UTC", let zone = TimeZone(identifier: identifier) else {
            return nil
        }
        self.identifier = identifier
        self.zone = zone
    }

    /// The instant at which clocks in this zone show `wall` (given as if it were UTC). Not
    /// held within `Instant.supported`: the parser refuses a wall time the zone carries past
    /// either end of it.
    public func instant(forWallTime wall: Instant) -> Instant {
        let wallSeconds = Double(wall.microseconds) / 1_000_000
        // At most one transition lies within a day of any wall time, so the offsets a day
        // before and a day after are the only candidates.
        let before = offset(at: wallSeconds - 86_400)
        let after = offset(at: wallSeconds + 86_400)
        let candidates = [before, after].filter { offset(at: wallSeconds - Double($0)) == $0 }
        let chosen: Int
        if candidates.isEmpty {
            chosen = before
        } else {
            // The largest offset gives the earliest instant.
            chosen = candidates.max() ?? before
        }
        // A wall time of years 0000–9999 and an offset under a day cannot overflow.
        return Instant(microseconds: wall.microseconds - Int64(chosen) * 1_000_000)
    }

    /// The zone's offset from UTC at `instant`, in seconds (east positive).
    public func secondsFromUTC(at instant: Instant) -> Int {
        offset(at: Double(instant.microseconds) / 1_000_000)
    }

    private func offset(at seconds: Double) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))
    }
}
