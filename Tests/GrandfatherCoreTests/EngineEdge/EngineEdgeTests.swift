import Foundation
import GrandfatherEngine
import Testing

@testable import GrandfatherCore

/// The one conversion of the engine's failures into the run's (`EngineEdge.converting`), and
/// an adapter through it.
struct EngineEdgeTests {
    @Test("each engine failure becomes the run's, case for case and word for word, with its exit code")
    func conversion() {
        let cases: [(engine: EngineError, run: GrandfatherError, line: String, exitCode: Int32)] = [
            (.usage("no such file: a.csv"), .usage("no such file: a.csv"), "error: no such file: a.csv", 2),
            (
                .input(file: "a.csv.gz", line: nil, message: "gzip data is truncated"),
                .input(file: "a.csv.gz", line: nil, message: "gzip data is truncated"),
                "a.csv.gz: error: gzip data is truncated", 2
            ),
            (
                .input(file: "a.csv", line: 3, message: "no CSV header"),
                .input(file: "a.csv", line: 3, message: "no CSV header"), "a.csv:3: error: no CSV header", 2
            ),
            (
                .io(path: "out/summary.md", message: "cannot flush: No space left on device"),
                .io(path: "out/summary.md", message: "cannot flush: No space left on device"),
                "out/summary.md: error: cannot flush: No space left on device", 1
            ),
            (
                .internal("a parsing job produced nothing"), .internal("a parsing job produced nothing"),
                "error: internal: a parsing job produced nothing", 1
            ),
        ]
        for (engine, run, line, exitCode) in cases {
            let converted = Result { () throws(GrandfatherError) -> Int in
                try EngineEdge.converting { () throws(EngineError) -> Int in throw engine }
            }
            #expect(converted == .failure(run))
            #expect(run.description == line)
            #expect(run.exitCode == exitCode)
        }
        #expect(
            Result { () throws(GrandfatherError) in try EngineEdge.converting { () throws(EngineError) in 7 } }
                == .success(7))
    }

    @Test("an adapter fails as the engine does, in the run's type")
    func adapter() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("edge-\(UUID().uuidString)").path
        try Disk.makeFreshDirectory(folder)
        defer { try? Disk.remove(folder) }
        #expect(throws: GrandfatherError.io(path: folder, message: "cannot create folder: File exists")) {
            try Disk.makeFreshDirectory(folder)
        }
    }
}
