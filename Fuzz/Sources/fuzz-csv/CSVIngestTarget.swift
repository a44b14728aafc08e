import FuzzSupport

/// The process: libFuzzer's driver over this target's input function.
@main enum CSVIngestTarget {
    static func main() { FuzzerDriver.run(fuzzCSVIngest) }
}

/// CSV exports: recognition, the header check, libcsv through `CSVReader`, range cutting,
/// and normalization of customers and transactions.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVIngest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    IngestHarness.run(UnsafeRawBufferPointer(start: data, count: size), formats: [.csv])
}
