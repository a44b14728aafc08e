/// The forms `TimestampParser` reads (SPEC §8.6), read from raw bytes without Foundation
/// formatters: the fixed part a word at a time, digits and separators checked in registers.
extension TimestampParser {
    /// Parses a string (a convenience over the byte form, for policies and the command line).
    public func parse(_ text: String) -> Result<Instant, TimestampError> {
        var copy = text
        return copy.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// Parses raw bytes. Every instant it returns lies in `Instant.supported`.
    public func parse(_ bytes: UnsafeRawBufferPointer) -> Result<Instant, TimestampError> {
        guard !bytes.isEmpty else { return .failure(.malformed) }
        let parsed =
            bytes.count < 10 || bytes[4] != UInt8(ascii: "-") ? parseEpochMilliseconds(bytes) : parseCalendar(bytes)
        // One check for every form: a calendar year 0000, an offset or a zone that carries
        // 0001-01-01 or 9999-12-31 across the year's edge, epoch milliseconds past it.
        if case .success(let instant) = parsed, !Instant.supported.contains(instant) { return .failure(.outOfRange) }
        return parsed
    }

    private func parseEpochMilliseconds(_ bytes: UnsafeRawBufferPointer) -> Result<Instant, TimestampError> {
        var index = 0
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        guard index < bytes.count else { return .failure(.malformed) }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- 0x30
            guard digit <= 9 else { return .failure(.malformed) }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(digit))
            guard !overflow1, !overflow2 else { return .failure(.outOfRange) }
            value = sum
            index += 1
        }
        // Epoch ms must still fit once turned into microseconds.
        guard value <= Int64.max / 1000 else { return .failure(.outOfRange) }
        return .success(Instant(microseconds: (negative ? -value : value) * 1000))
    }

    private func parseCalendar(_ b: UnsafeRawBufferPointer) -> Result<Instant, TimestampError> {
        // Fixed part: YYYY-MM-DDTHH:MM:SS is 19 bytes.
        guard b.count >= 19, let base = b.baseAddress, let fixed = Self.fixedPart(base) else {
            return .failure(.malformed)
        }
        let (year, month, day, hour, minute, second) = fixed
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month),
            hour <= 23, minute <= 59, second <= 59
        else { return .failure(.fieldOutOfRange) }

        var index = 19
        var micros: Int64 = 0
        if index < b.count, b[index] == UInt8(ascii: ".") {
            index += 1
            var count = 0
            while index < b.count, b[index] &- 0x30 <= 9 {
                if count < 6 { micros = micros * 10 + Int64(b[index] &- 0x30) }
                count += 1
                index += 1
            }
            guard count > 0 else { return .failure(.malformed) }
            for _ in count..<max(count, 6) { micros *= 10 }
        }

        let days = CivilDate.toDays(year: year, month: month, day: day)
        let wallSeconds = days * 86_400 + hour * 3600 + minute * 60 + second
        let wall = Instant(microseconds: wallSeconds * 1_000_000 + micros)

        guard index < b.count else {
            guard let zone = defaultZone else { return .failure(.noZone) }
            return .success(zone.instant(forWallTime: wall))
        }
        switch b[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            return index + 1 == b.count ? .success(wall) : .failure(.malformed)
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign: Int64 = b[index] == UInt8(ascii: "+") ? 1 : -1
            let rest = b.count - index - 1
            guard let offsetHours = digits(b, index + 1, 2) else { return .failure(.malformed) }
            var offsetMinutes: Int64 = 0
            switch rest {
            case 2: break
            case 4:
                guard let minutes = digits(b, index + 3, 2) else { return .failure(.malformed) }
                offsetMinutes = minutes
            case 5:
                guard b[index + 3] == UInt8(ascii: ":"), let minutes = digits(b, index + 4, 2) else {
                    return .failure(.malformed)
                }
                offsetMinutes = minutes
            default:
                return .failure(.malformed)
            }
            guard offsetHours <= 23, offsetMinutes <= 59 else { return .failure(.fieldOutOfRange) }
            // Not `adding(seconds:)`, which holds its result within the supported range: an
            // offset that carries the time past either end must be seen and refused.
            let offsetMicroseconds = (offsetHours * 3600 + offsetMinutes * 60) * 1_000_000
            return .success(Instant(microseconds: wall.microseconds - sign * offsetMicroseconds))
        default:
            return .failure(.malformed)
        }
    }

    @inline(__always)
    private func digits(_ b: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> Int64? {
        guard start + count <= b.count else { return nil }
        var value: Int64 = 0
        for index in start..<(start + count) {
            let digit = b[index] &- 0x30
            guard digit <= 9 else { return nil }
            value = value * 10 + Int64(digit)
        }
        return value
    }

    /// `YYYY-MM-DDTHH:MM:SS` read three words at a time (twenty million timestamps per run
    /// read byte by byte cost a tenth of normalising): `nil` unless every digit is a digit,
    /// the separators are `-`, `T` or `t`, and `:`.
    @inline(__always)
    private static func fixedPart(
        _ base: UnsafeRawPointer
    ) -> (year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64)? {
        guard let (fields, between) = fixedWords(base), between & 0xDF == 0x54 else { return nil }  // T or t
        return fields
    }

    /// `YYYY-MM-DD?HH:MM:SS`, the first 19 of `bytes`, read as `fixedPart` reads it, with
    /// the byte between date and time (`?`) handed back for the caller to judge: `nil` when
    /// there are fewer bytes, or a digit or separator is not one. Other formats' times (a
    /// RevenueCat export writes a space there) are read by it at the canonical form's cost.
    public static func calendarFields(
        _ bytes: Span<UInt8>
    ) -> (year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64, between: UInt8)? {
        guard bytes.count >= 19 else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, let (fields, between) = fixedWords(UnsafeRawPointer(base)) else {
                return nil
            }
            return (fields.year, fields.month, fields.day, fields.hour, fields.minute, fields.second, between)
        }
    }

    /// The fields of `YYYY-MM-DD?HH:MM:SS` at `base` and the byte `?`; `nil` unless every
    /// digit is a digit and the other separators are `-` and `:`.
    @inline(__always)
    private static func fixedWords(
        _ base: UnsafeRawPointer
    ) -> (fields: (year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64), between: UInt8)? {
        // Bytes 0–7 `YYYY-MM-`, 8–15 `DDT…`, 11–18 `HH:MM:SS`; byte k of a word is bits 8k….
        let date = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        let dayAndT = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let time = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 11, as: UInt64.self))
        guard date & 0xFF00_00FF_0000_0000 == 0x2D00_002D_0000_0000,  // - at 4 and 7
            time & 0x0000_FF00_00FF_0000 == 0x0000_3A00_003A_0000,  // : at 13 and 16
            let date = digitValues(date, mask: 0x00FF_FF00_FFFF_FFFF),
            let day = digitValues(dayAndT, mask: 0xFFFF),
            let time = digitValues(time, mask: 0xFFFF_00FF_FF00_FFFF)
        else { return nil }
        @inline(__always) func digit(_ word: UInt64, _ byte: UInt64) -> Int64 { Int64(word >> (8 * byte) & 0xFF) }
        return (
            (
                digit(date, 0) * 1000 + digit(date, 1) * 100 + digit(date, 2) * 10 + digit(date, 3),
                digit(date, 5) * 10 + digit(date, 6), digit(day, 0) * 10 + digit(day, 1),
                digit(time, 0) * 10 + digit(time, 1), digit(time, 3) * 10 + digit(time, 4),
                digit(time, 6) * 10 + digit(time, 7)
            ),
            UInt8(truncatingIfNeeded: dayAndT >> 16)
        )
    }

    /// The bytes of `word` under `mask` as digit values 0–9 (others zero); `nil` when one of
    /// them is not an ASCII digit.
    @inline(__always)
    private static func digitValues(_ word: UInt64, mask: UInt64) -> UInt64? {
        let values = (word ^ 0x3030_3030_3030_3030) & mask
        // A value of 10 or more gains its high bit when 0x76 is added; a byte of 128 or more
        // has it already (and any carry it makes lands where the answer is no anyway).
        guard (values | (values &+ 0x7676_7676_7676_7676)) & 0x8080_8080_8080_8080 == 0 else { return nil }
        return values
    }
}
