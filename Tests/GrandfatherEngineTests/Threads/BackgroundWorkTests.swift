import Foundation
import Testing

@testable import GrandfatherEngine

/// `BackgroundWork` does every piece handed over, in the order given, on its own thread, and
/// `finish` sees the state only once all are done.
struct BackgroundWorkTests {
    /// A piece holding a class, as a transaction batch holds its text buffer.
    final class Box {
        var values: [Int]
        init(_ values: [Int]) { self.values = values }
    }

    @Test func everyPieceIsWorkedInOrderBeforeFinishReadsTheState() {
        let work = BackgroundWork<[Int], Box>([]) { seen, box in
            // Slow enough now and then that the reader waits for room.
            if box.values[0] % 7 == 0 { usleep(200) }
            seen += box.values
        }
        var handed: [Int] = []
        for piece in 0..<500 {
            let values = [piece * 3, piece * 3 + 1, piece * 3 + 2]
            handed += values
            work.hand(Box(values))
        }
        let seen = work.finish { $0 }
        #expect(seen == handed)
    }

    @Test func finishWithNothingHandedGivesTheStateAsGiven() {
        let work = BackgroundWork<Int, Int>(41) { total, piece in total += piece }
        #expect(work.finish { $0 + 1 } == 42)
    }
}
