import Foundation
import GrandfatherEngine

/// How the ingest stage cuts files into ranges; tests force small ranges to check that
/// parsing in parts gives what one pass gives.
struct IngestOptions: Sendable {
    /// How many ranges a large file is cut into at most: many per core, so that the last
    /// ranges, which one core may finish while the other waits, are short (see
    /// `RecordSplitter.ranges`).
    var parts = max(1, ProcessInfo.processInfo.activeProcessorCount) * 16
    /// Files smaller than this many bytes per part are cut into fewer parts.
    var minimumPartSize = RecordSplitter.minimumPartSize
}
