import GrandfatherEngine

/// How a team's export writes an instant (issue 52), as a mapping names it. Forms without a
/// zone of their own are read in the mapping's `zone` for the field.
enum TimeForm: String, CaseIterable, Sendable, Equatable {
    /// ISO-8601, `2025-03-04T17:00:00Z` or `…+01:00`; without a zone, in the field's zone.
    case iso8601 = "iso8601"
    /// `2025-03-04 17:00:00` (seconds and a fraction optional), in the field's zone.
    case dateTime = "yyyy-MM-dd HH:mm:ss"
    /// `2025-03-04`: midnight, in the field's zone.
    case date = "yyyy-MM-dd"
    /// `03/04/2025` or `03/04/2025 17:00[:00]`, month first, in the field's zone.
    case usDate = "MM/dd/yyyy"
    /// `04/03/2025` or `04/03/2025 17:00[:00]`, day first, in the field's zone.
    case dayFirstDate = "dd/MM/yyyy"
    /// Whole seconds since 1970-01-01T00:00:00Z.
    case epochSeconds = "epoch_seconds"
    /// Whole milliseconds since 1970-01-01T00:00:00Z.
    case epochMilliseconds = "epoch_milliseconds"

    /// Whether values of this form can state their own zone.
    var carriesZone: Bool {
        switch self {
        case .epochSeconds, .epochMilliseconds: return true
        case .iso8601, .dateTime, .date, .usDate, .dayFirstDate: return false
        }
    }

    /// What one value looks like, as far as its text tells: a form, and whether it named a
    /// zone; `nil` when it is none of the forms. A slash date whose two first numbers are both
    /// 12 or less could be either order: `.usDate` with `ambiguous` set.
    static func guess(_ text: String) -> (form: TimeForm, zoned: Bool, ambiguous: Bool)? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        if bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            switch bytes.count {
            case 9...11: return (.epochSeconds, true, false)
            case 12...14: return (.epochMilliseconds, true, false)
            default: return nil
            }
        }
        if bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") {
            if bytes.count == 10 { return (.date, false, false) }
            let rest = bytes[10...]
            let zoned =
                rest.last == UInt8(ascii: "Z") || rest.contains(UInt8(ascii: "+"))
                || rest.dropFirst(6).contains(UInt8(ascii: "-"))
            switch bytes[10] {
            case UInt8(ascii: "T"): return (.iso8601, zoned, false)
            case UInt8(ascii: " "): return (zoned ? .iso8601 : .dateTime, zoned, false)
            default: return nil
            }
        }
        let parts = text.split(separator: " ", maxSplits: 1)[0].split(separator: "/")
        guard parts.count == 3, let first = Int(parts[0]), let second = Int(parts[1]), parts[2].count == 4,
            Int(parts[2]) != nil
        else { return nil }
        if first > 12, second <= 12 { return (.dayFirstDate, false, false) }
        if second > 12, first <= 12 { return (.usDate, false, false) }
        return first <= 12 && second <= 12 ? (.usDate, false, true) : nil
    }
}

extension TimeForm {
    /// Why a value is not a time of its form: its row's rejection reason.
    struct Problem: Error, Equatable {
        var reason: String
    }

    /// `text`, written in this form, as SPEC §2 writes an instant (ISO-8601 in UTC), read in
    /// `zone` when it states none; or why it cannot be read, for its row's rejection.
    func canonical(_ text: String, zone: WallClockZone?) -> Result<String, Problem> {
        let parser = TimestampParser(defaultZone: zone)
        func read(_ iso: String) -> Result<String, Problem> {
            switch parser.parse(iso) {
            case .success(let instant): return .success(instant.iso8601)
            case .failure(.noZone):
                return .failure(Problem(reason: "\"\(text)\" states no zone, and the mapping names none for it"))
            case .failure(let error): return .failure(Problem(reason: error.reason(for: text) + " as \(rawValue)"))
            }
        }
        let bytes = Array(text.utf8)
        let digits = !bytes.isEmpty && bytes.drop { $0 == UInt8(ascii: "-") }.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        switch self {
        case .epochSeconds, .epochMilliseconds:
            guard digits, let value = Int64(text) else {
                return .failure(
                    Problem(
                        reason:
                            "\"\(text)\" is not \(self == .epochSeconds ? "whole seconds" : "whole milliseconds") since 1970"
                    ))
            }
            // A count too large for microseconds is no supported instant either.
            let (micros, overflow) = value.multipliedReportingOverflow(by: self == .epochSeconds ? 1_000_000 : 1_000)
            let instant = Instant(microseconds: micros)
            guard !overflow, Instant.supported.contains(instant) else {
                return .failure(Problem(reason: "\"\(text)\" is outside \(Instant.supportedDescription)"))
            }
            return .success(instant.iso8601)
        case .iso8601: return read(text)
        case .dateTime:
            guard bytes.count >= 16, bytes[10] == UInt8(ascii: " ") else {
                return .failure(Problem(reason: "\"\(text)\" is not \(rawValue)"))
            }
            let iso = "\(text.prefix(10))T\(text.dropFirst(11))"
            // Minutes alone (`17:00`) are a whole minute.
            return read(bytes.count == 16 ? iso + ":00" : iso)
        case .date:
            guard bytes.count == 10 else { return .failure(Problem(reason: "\"\(text)\" is not \(rawValue)")) }
            return read(text + "T00:00:00")
        case .usDate, .dayFirstDate:
            let parts = text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            let numbers = parts[0].split(separator: "/", omittingEmptySubsequences: false)
            guard numbers.count == 3, numbers.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isNumber) }),
                numbers[2].count == 4, numbers[0].count <= 2, numbers[1].count <= 2
            else { return .failure(Problem(reason: "\"\(text)\" is not \(rawValue)")) }
            let (month, day) = self == .usDate ? (numbers[0], numbers[1]) : (numbers[1], numbers[0])
            func two(_ part: Substring) -> String { part.count == 1 ? "0" + part : String(part) }
            var time = parts.count == 2 ? String(parts[1]) : "00:00:00"
            if time.count == 5 { time += ":00" }
            return read("\(numbers[2])-\(two(month))-\(two(day))T\(time)")
        }
    }
}
