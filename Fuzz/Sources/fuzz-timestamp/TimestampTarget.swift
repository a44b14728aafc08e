import FuzzSupport
import GrandfatherCore
import GrandfatherEngine

/// No zone, a zone with daylight saving, and one whose shift is half an hour.
private let zones: [WallClockZone?] = [
    nil, WallClockZone(identifier: "America/Los_Angeles"), WallClockZone(identifier: "Australia/Lord_Howe"),
]

/// The process: libFuzzer's driver over this target's input function.
@main enum TimestampTarget {
    static func main() { FuzzerDriver.run(fuzzTimestamp) }
}

/// `TimestampParser` on raw bytes, with and without a default zone. Besides crashes it checks
/// that the string form agrees with the byte form, and that an instant's UTC text, which
/// every report prints, reads back as the same instant.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTimestamp(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let text = String(validating: bytes, as: UTF8.self)
    for zone in zones {
        let parser = TimestampParser(defaultZone: zone)
        let parsed = parser.parse(bytes)
        if let text, parser.parse(text) != parsed {
            fatalError("the string and byte forms disagree on \(text.debugDescription)")
        }
        switch parsed {
        case .success(let instant):
            let printed = instant.iso8601
            // Years outside 0000–9999 print in a form the parser does not read; nothing else should.
            guard isFourDigitYear(printed) else { continue }
            let reread = TimestampParser(defaultZone: nil).parse(printed)
            if reread != .success(instant) { fatalError("\(printed) reads back as \(reread), not \(instant)") }
        case .failure(let error):
            _ = error.reason(for: text ?? "")
        }
    }
    return 0
}

/// Whether ISO-8601 text starts with a year of four digits.
private func isFourDigitYear(_ text: String) -> Bool {
    let head = Array(text.utf8.prefix(5))
    return head.count == 5 && head[0..<4].allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && head[4] == UInt8(ascii: "-")
}
