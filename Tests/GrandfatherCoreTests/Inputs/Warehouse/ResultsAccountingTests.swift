import Testing

@testable import GrandfatherCore

/// Issue 33, items 3 and 10: `audit --results` holds the manifest's accounting to the folder's
/// files, and never adds counts that overflow.
struct ResultsAccountingTests {
    static func input(
        _ path: String, kind: RecordKind = .transactions, read: Int, accepted: Int, rejected: Int, superseded: Int = 0
    ) -> InputReport {
        var report = InputReport(
            path: path, format: .csv, kind: kind, sizeBytes: 10, sha256: "", rowsRead: read, rowsAccepted: accepted,
            rowsRejected: rejected, exactDuplicates: 0, sandboxRows: 0)
        report.superseded = superseded
        return report
    }

    static func rejection(_ file: String, _ line: Int) -> Rejection {
        Rejection(file: file, line: line, column: nil, field: nil, reason: "bad")
    }

    static func problem(
        _ inputs: [InputReport], _ rejections: [Rejection], transactions: Int = 100
    ) -> String? {
        do {
            try ResultsAccounting.check(inputs, rejections: rejections, transactionRows: transactions, manifest: "m")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func accountingThatTheFilesBearOutPasses() {
        let inputs = [
            Self.input("t.csv", read: 5, accepted: 4, rejected: 1, superseded: 1),
            Self.input("c.csv", kind: .customers, read: 2, accepted: 2, rejected: 0),
            Self.input("t.csv", read: 5, accepted: 4, rejected: 1),
        ]
        #expect(Self.problem(inputs, [Self.rejection("t.csv", 3), Self.rejection("t.csv", 3)], transactions: 7) == nil)
    }

    @Test func rejectedRowsAreTheRowsRejectedCSVLists() {
        let inputs = [Self.input("t.csv", read: 4, accepted: 1, rejected: 3)]
        #expect(
            Self.problem(inputs, [Self.rejection("t.csv", 2)])
                == "m: error: it says 3 rejected rows of 't.csv'; rejected.csv lists 1")
        #expect(
            Self.problem(inputs, (1...3).map { Self.rejection("t.csv", $0) } + [Self.rejection("x.csv", 1)])
                == "m: error: rejected.csv lists 1 rows of 'x.csv', which is not one of its inputs")
    }

    @Test func countsAddUpWithoutOverflowing() {
        let huge = Self.input("t.csv", kind: .customers, read: .max, accepted: .max, rejected: 0)
        #expect(Self.problem([huge, huge], []) == "m: error: the rows read add up to more than a count can hold")
        #expect(
            Self.problem([Self.input("t.csv", read: .max, accepted: .max, rejected: 1)], [Self.rejection("t.csv", 1)])
                == "m: error: 't.csv': 9223372036854775807 rows read are not 9223372036854775807 accepted + 1 rejected")
        #expect(
            Self.problem([Self.input("t.csv", read: -1, accepted: -1, rejected: 0)], [])
                == "m: error: a count of 't.csv' is negative")
    }

    @Test func acceptedTransactionRowsAreAllInTransactionsCSV() {
        let inputs = [Self.input("t.csv", read: 9, accepted: 9, rejected: 0, superseded: 2)]
        #expect(Self.problem(inputs, [], transactions: 7) == nil)
        // A store's file is not held to it: its rows are not one transaction each.
        var store = inputs[0]
        store.format = .revenueCatExport
        #expect(Self.problem([store], [], transactions: 0) == nil)
        #expect(
            Self.problem(inputs, [], transactions: 6)
                == "m: error: its transaction files accepted 7 rows; the transactions table holds 6")
    }
}
