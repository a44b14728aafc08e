import Foundation
@_spi(Fuzzing) import GrandfatherCore
import GrandfatherEngine

/// Runs one fuzz input through recognition, ingest and normalization as the audit runs a file.
///
/// The readers read files at offsets (several ranges at once), so the input is written to one
/// scratch file per process, rewritten for each input; `scripts/fuzz` points `TMPDIR` at its
/// scratch folder. Besides crashes, the harness checks what the ingest tests check on fixed
/// data: cutting transactions into ranges gives exactly what one pass gives.
public enum IngestHarness {
    /// The scratch file each input is written to.
    public static let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("grandfather-fuzz-\(getpid()).input").path

    /// A policy like the sample's: its default time zone sends zone-less timestamps through
    /// `WallClockZone`.
    public static let policy: Policy = {
        let text = """
            {"cutover": {"date": "2025-03-04T09:00:00-08:00", "versions": {"ios": "412", "default": "1.10"}},
             "grandfathered_entitlements": ["premium"],
             "products": {"pro.monthly": {"entitlements": ["premium"]}, "trip.pass": {"entitlements": ["premium"], "term_days": 30}},
             "max_rejected_fraction": 1, "default_time_zone": "America/Los_Angeles"}
            """
        do {
            return try PolicyLoader.parse(data: Data(text.utf8), file: "policy.json")
        } catch {
            fatalError("the harness policy does not load: \(error)")
        }
    }()

    public static let asOf = Instant(seconds: 1_750_000_000)

    /// Reads `bytes` when they are recognised as one of `formats`.
    ///
    /// - Returns: 0, or -1 (libFuzzer keeps such inputs out of the corpus) when the input is
    ///   of another format, which the other ingest target covers.
    public static func run(_ bytes: UnsafeRawBufferPointer, formats: Set<InputFormat>) -> Int32 {
        if let stretched = stretched(bytes) {
            stretched.withUnsafeBytes { replaceInput(with: $0) }
        } else {
            replaceInput(with: bytes)
        }
        let description: InputDescription
        let header: [String]?
        do {
            (description, header) = try Fuzzing.recognize(path: path)
        } catch {
            return 0
        }
        guard formats.contains(description.format) else { return -1 }
        if description.format == .csv, let header {
            // The lines read by hand must be read as libcsv alone reads them.
            if case .success(let difference?) = Result(catching: { () throws(GrandfatherError) in
                try Fuzzing.csvDifference(description, header: header)
            }) {
                fatalError("the plain-line reader and libcsv disagree: \(difference)")
            }
        }
        if description.format == .jsonLines {
            // The flat lines read by hand must be read as the scanner alone reads them.
            if case .success(let difference?) = Result(catching: { () throws(GrandfatherError) in
                try Fuzzing.jsonLinesDifference(description)
            }) {
                fatalError("the flat-object reader and the JSON scanner disagree: \(difference)")
            }
        }
        let onePass = ingest(description, header: header, parts: 1)
        // Only transactions in CSV and JSON Lines are ever cut (RecordSplitter).
        guard description.kind == .transactions, description.format != .jsonArray else { return 0 }
        let parts = 2 + bytes.count % 4
        let cut = ingest(description, header: header, parts: parts)
        if cut != onePass {
            fatalError("cutting into \(parts) ranges changed the outcome:\none pass: \(onePass)\ncut: \(cut)")
        }
        return 0
    }

    /// One input in 16 (by length, which the fuzzer controls) is stretched past the readers'
    /// chunk, so that the code joining chunks runs too: one line of spaces (blank to the JSON
    /// readers, one short row to CSV) goes after the first line, so that a chunk boundary falls
    /// inside the bytes after it.
    private static func stretched(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard bytes.count % 16 == 15, let firstBreak = bytes.firstIndex(of: 0x0A) else { return nil }
        let rest = bytes[(firstBreak + 1)...]
        // Where the boundary falls in the rest: any byte of it, chosen by the bytes themselves.
        let offset = rest.isEmpty ? 0 : bytes.reduce(0) { $0 &+ Int($1) } % rest.count
        let spaces = Fuzzing.chunkSize - (firstBreak + 1) - offset - 1
        return Array(bytes[...firstBreak]) + [UInt8](repeating: 0x20, count: max(spaces, 0)) + [0x0A] + Array(rest)
    }

    private static func ingest(
        _ description: InputDescription, header: [String]?, parts: Int
    ) -> Result<Fuzzing.IngestOutcome, GrandfatherError> {
        Result { () throws(GrandfatherError) in
            try Fuzzing.ingest(description, header: header, policy: policy, asOf: asOf, parts: parts)
        }
    }

    /// Writes `bytes` over the scratch file.
    public static func replaceInput(with bytes: UnsafeRawBufferPointer) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { fatalError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count, let base = bytes.baseAddress {
            let count = write(descriptor, base + written, bytes.count - written)
            guard count > 0 else { fatalError("cannot write \(path): \(String(cString: strerror(errno)))") }
            written += count
        }
    }
}
