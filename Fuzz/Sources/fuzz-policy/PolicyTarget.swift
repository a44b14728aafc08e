import Foundation
import FuzzSupport
import GrandfatherCore

/// The process: libFuzzer's driver over this target's input function.
@main enum PolicyTarget {
    static func main() { FuzzerDriver.run(fuzzPolicy) }
}

/// `PolicyLoader` on policy bytes: `JSONParser` and every key's validation, then the lookups
/// the classifier makes of a policy that loaded, and the one-line error of one that did not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPolicy(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    do {
        let policy = try PolicyLoader.parse(data: bytes, file: "policy.json")
        for platform in Platform.allCases { _ = policy.cutover.version(for: platform) }
        for product in policy.products.keys + ["unknown.product"] {
            _ = policy.entitlements(forProduct: product)
            _ = policy.termSeconds(forProduct: product)
        }
    } catch {
        _ = error.description
        _ = error.exitCode
    }
    return 0
}
