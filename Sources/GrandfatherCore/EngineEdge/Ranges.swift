import GrandfatherEngine

/// A file read as ranges on every core (`RangedRead`), failing as the run fails.
enum Ranges {
    /// `RangedRead(…)`: the plan for `source`, cut into ranges when `cut`.
    static func plan(
        _ source: ByteSource, layout: RecordLayout, cut: Bool, parts: Int, minimumPartSize: Int
    ) throws(GrandfatherError) -> RangedRead {
        try EngineEdge.converting { () throws(EngineError) in
            try RangedRead(source, layout: layout, cut: cut, parts: parts, minimumPartSize: minimumPartSize)
        }
    }

    /// `RangedRead.digest()`: job 0's work, the file's SHA-256, the ranges published on the way.
    static func digest(of plan: RangedRead) throws(GrandfatherError) -> String {
        try EngineEdge.converting { () throws(EngineError) in try plan.digest() }
    }

    /// `RangedRead.range(job:)`: the range job `job` reads, once its ends are known.
    static func range(of plan: RangedRead, job: Int) throws(GrandfatherError) -> Range<Int>? {
        try EngineEdge.converting { () throws(EngineError) in try plan.range(job: job) }
    }
}
