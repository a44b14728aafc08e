import CLibCSV
import Foundation

@testable import GrandfatherEngine

/// What libcsv reports while parsing chunks one after another, and during which chunk: for
/// tests that check a per-chunk decision against libcsv itself.
final class LibCSVEvents {
    enum Event: Equatable {
        case field([UInt8])
        case record(Int32)
    }

    private(set) var events: [(chunk: Int, event: Event)] = []
    private var chunk = 0

    /// The fields reported, with their chunks.
    var fields: [(chunk: Int, bytes: [UInt8])] {
        events.compactMap { entry in
            guard case .field(let bytes) = entry.event else { return nil }
            return (entry.chunk, bytes)
        }
    }

    /// Parses `chunks` in order, then ends the input. `beforeChunk` sees each chunk and the
    /// parser's state before it is parsed, and says whether libcsv's default space handling
    /// is used for it (otherwise nothing counts as a space, as `CSVReader` reads).
    static func parse(
        _ chunks: [[UInt8]], beforeChunk: (UnsafeRawBufferPointer, csv_parser) -> Bool
    ) -> LibCSVEvents {
        var parser = csv_parser()
        _ = csv_init(&parser, UInt8(CSV_REPALL_NL))
        defer { csv_free(&parser) }
        let collected = LibCSVEvents()
        let context = Unmanaged.passUnretained(collected).toOpaque()
        for (index, chunk) in chunks.enumerated() {
            collected.chunk = index
            chunk.withUnsafeBytes { raw in
                let useDefault = beforeChunk(raw, parser)
                csv_set_space_func(&parser, useDefault ? nil : CSVReader.neverSpace)
                _ = csv_parse(&parser, raw.baseAddress, raw.count, onField, onRecord, context)
            }
        }
        collected.chunk = chunks.count
        csv_fini(&parser, onField, onRecord, context)
        return collected
    }
}

private let onField: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Void = {
    data, length, context in
    guard let context else { return }
    let box = Unmanaged<LibCSVEvents>.fromOpaque(context).takeUnretainedValue()
    box.append(.field(data.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? []))
}

private let onRecord: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = { terminator, context in
    guard let context else { return }
    Unmanaged<LibCSVEvents>.fromOpaque(context).takeUnretainedValue().append(.record(terminator))
}

extension LibCSVEvents {
    fileprivate func append(_ event: Event) {
        events.append((chunk, event))
    }
}
