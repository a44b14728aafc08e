/// Reads the timestamp forms of SPEC §8.6 from raw bytes, without Foundation formatters.
///
/// `YYYY-MM-DDTHH:MM:SS[.fraction][Z|±HH:MM|±HHMM|±HH]` (`T` and `Z` in any case) or
/// `-?digits` as epoch milliseconds. Fractions finer than a microsecond are truncated.
/// A zone-less timestamp is wall time in the policy's `default_time_zone`, or an error.
///
/// A run reads some twenty million timestamps, so both `parse(_:)` entries (a string's and
/// raw bytes) are in TimestampParser+Bytes.swift, reading bytes a word at a time.
public struct TimestampParser: Sendable {
    /// The zone for zone-less timestamps; `nil` rejects them.
    var defaultZone: WallClockZone?

    /// Creates a parser.
    public init(defaultZone: WallClockZone?) {
        self.defaultZone = defaultZone
    }
}

/// Why a timestamp was not read.
public enum TimestampError: Error, Equatable, Sendable {
    /// Not one of the accepted forms (no seconds, date only, a space separator, trailing text…).
    case malformed
    /// A month, day, hour, minute, second or offset outside its range (hour 24, second 60…).
    case fieldOutOfRange
    /// Outside `Instant.supported` (years 0001–9999), in any form.
    case outOfRange
    /// No zone, and the policy names no `default_time_zone`.
    case noZone

    /// Reason text for a rejection, quoting the value.
    public func reason(for value: String) -> String {
        switch self {
        case .malformed: return "invalid timestamp '\(value)'"
        case .fieldOutOfRange: return "timestamp out of range '\(value)'"
        case .outOfRange: return "timestamp '\(value)' is outside \(Instant.supportedDescription)"
        case .noZone: return "timestamp without time zone '\(value)' (policy has no default_time_zone)"
        }
    }
}
