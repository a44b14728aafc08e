import FuzzSupport
@_spi(Fuzzing) import GrandfatherCore

/// The process: libFuzzer's driver over this target's input function.
@main enum AppVersionTarget {
    static func main() { FuzzerDriver.run(fuzzAppVersion) }
}

/// `AppVersion` parsing and comparison on up to three versions, one a line. Besides crashes it
/// checks that `compare(_:with:)` parses as `init` does and agrees with `<` and
/// `naivelyPrecedes`, and that the order is total, consistent with `==` and transitive.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppVersion(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let lines = UnsafeBufferPointer(start: data, count: size)
        .split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    let versions = lines.map { AppVersion($0) }
    for (text, version) in zip(lines, versions) {
        for other in versions.compactMap({ $0 }) {
            let compared = Fuzzing.compare(text, with: other)
            guard let version, let compared else {
                if (version == nil) != (compared == nil) { fatalError("compare parses \(text.debugDescription) apart") }
                continue
            }
            if compared.lower != (version < other) { fatalError("compare and < disagree: \(version), \(other)") }
            if compared.naivelyLower != version.naivelyPrecedes(other) {
                fatalError("compare and naivelyPrecedes disagree: \(version), \(other)")
            }
            if [version < other, other < version, version == other].filter({ $0 }).count != 1 {
                fatalError("not exactly one of <, >, == holds: \(version), \(other)")
            }
            if version == other, version.hashValue != other.hashValue {
                fatalError("equal versions hash apart: \(version), \(other)")
            }
        }
    }
    let parsed = versions.compactMap { $0 }
    if parsed.count == 3, parsed[0] < parsed[1], parsed[1] < parsed[2], !(parsed[0] < parsed[2]) {
        fatalError("< is not transitive: \(parsed)")
    }
    return 0
}
