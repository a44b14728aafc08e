import GrandfatherEngine

/// `audit --results`: the inputs' accounting in `manifest.json`, held to the files of the
/// folder before a run is made of it. The manifest is a file anyone can edit: a run that took
/// its counts on trust reported 3 rejected rows where its own `rejected.csv` listed 200,003
/// (so `max_rejected_fraction` was never reached), and trapped on counts whose sum overflows.
///
/// What the folder's files can say is recomputed and must match: each input's rejected rows
/// are the rows `rejected.csv` lists for it, and the canonical transaction files' accepted
/// rows are all in the transactions' parts. What they cannot say must at least add up, as the snapshot's
/// `runs` table requires: rows read are rows accepted plus rows rejected, each part of the
/// accepted rows is at most all of them, and no total overflows.
enum ResultsAccounting {
    /// Checks `inputs` (the manifest's) against the folder's `rejections` and the rows of its
    /// transactions' parts.
    /// - Throws: `GrandfatherError.input` naming the manifest and the first count that is wrong.
    static func check(
        _ inputs: [InputReport], rejections: [Rejection], transactionRows: Int, manifest: String
    ) throws(GrandfatherError) {
        func wrong(_ message: String) -> GrandfatherError { .input(file: manifest, line: nil, message: message) }
        var claimed: [String: Int] = [:]
        var read = 0
        var transactions = 0
        for input in inputs {
            let name = "'\(Excerpt.of(input.path))'"
            let parts = [
                input.rowsAccepted, input.rowsRejected, input.exactDuplicates, input.sandboxRows, input.superseded,
            ]
            guard input.rowsRead >= 0, parts.allSatisfy({ $0 >= 0 }) else {
                throw wrong("a count of \(name) is negative")
            }
            guard let sum = add(input.rowsAccepted, input.rowsRejected), sum == input.rowsRead else {
                throw wrong(
                    "\(name): \(input.rowsRead) rows read are not \(input.rowsAccepted) accepted + \(input.rowsRejected) rejected"
                )
            }
            guard max(input.exactDuplicates, input.sandboxRows, input.superseded) <= input.rowsAccepted else {
                throw wrong("\(name): more duplicate, sandbox or superseded rows than accepted rows")
            }
            guard let total = add(read, input.rowsRead), let perPath = add(claimed[input.path] ?? 0, input.rowsRejected)
            else { throw wrong("the rows read add up to more than a count can hold") }
            read = total
            claimed[input.path] = perPath
            if input.kind == .transactions, canonical.contains(input.format),
                let more = add(transactions, input.rowsAccepted - input.superseded)
            {
                transactions = more
            }
        }
        var listed: [String: Int] = [:]
        for rejection in rejections { listed[rejection.file, default: 0] += 1 }
        for path in Set(claimed.keys).union(listed.keys).sorted(by: { $0.codePointPrecedes($1) }) {
            let (says, lists) = (claimed[path] ?? 0, listed[path] ?? 0)
            guard says == lists else {
                guard claimed[path] != nil else {
                    throw wrong(
                        "rejected.csv lists \(lists) rows of '\(Excerpt.of(path))', which is not one of its inputs")
                }
                throw wrong("it says \(says) rejected rows of '\(Excerpt.of(path))'; rejected.csv lists \(lists)")
            }
        }
        guard transactions <= transactionRows else {
            throw wrong(
                "its transaction files accepted \(transactions) rows; the transactions table holds \(transactionRows)")
        }
    }

    /// The formats whose every accepted transaction row is one row of the transactions table. A
    /// store's files are not counted: an App Store file's rows include renewal information and
    /// repeated signed transactions, which make no row of their own.
    static let canonical: Set<InputFormat> = [.csv, .jsonArray, .jsonLines]

    /// `a + b`, or `nil` when the sum overflows.
    private static func add(_ a: Int, _ b: Int) -> Int? {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : sum
    }
}
