import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// A run's folder name and start, as `ls DIR/runs` and the snapshot's `runs` table show them.
struct RunRecordTests {
    @Test(arguments: [
        (1_795_551_608_123_456, "20261124T202008.123Z-4242", "2026-11-24T20:20:08.123Z"),
        (1_795_551_608_000_999, "20261124T202008.000Z-4242", "2026-11-24T20:20:08Z"),
        (1_795_551_608_999_999, "20261124T202008.999Z-4242", "2026-11-24T20:20:08.999Z"),
    ])
    func namedByTheStartToTheMillisecondThenTheProcess(microseconds: Int64, runID: String, startedAt: String) {
        let record = RunRecord(startingAt: Instant(microseconds: microseconds), processID: 4242)
        #expect(record.runID == runID)
        #expect(record.startedAt == startedAt)
        #expect(RunWriter.isRunID(record.runID))
    }
}
