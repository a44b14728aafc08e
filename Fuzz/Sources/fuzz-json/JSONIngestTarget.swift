import FuzzSupport

/// The process: libFuzzer's driver over this target's input function.
@main enum JSONIngestTarget {
    static func main() { FuzzerDriver.run(fuzzJSONIngest) }
}

/// JSON exports, as an array or as JSON Lines: recognition, `JSONReader` and `JSONParser`,
/// range cutting of JSON Lines, and normalization of customers and transactions.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONIngest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    IngestHarness.run(UnsafeRawBufferPointer(start: data, count: size), formats: [.jsonArray, .jsonLines])
}
