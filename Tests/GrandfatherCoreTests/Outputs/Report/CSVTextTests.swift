import Testing

@testable import GrandfatherCore

/// SPEC §6: customers.csv is safe to open in a spreadsheet, and is RFC 4180 CSV.
struct CSVTextTests {
    @Test(
        "cells a spreadsheet would run as a formula are neutralised",
        arguments: [
            ("=1+1", "'=1+1"),
            ("+1", "'+1"),
            ("-1", "'-1"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("=HYPERLINK(\"http://x\",\"y\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""),
            ("\rx", "\"'\rx\""),
        ])
    func neutralised(value: String, cell: String) {
        #expect(CSVText.cell(value) == cell)
    }

    @Test(
        "other cells are left alone or quoted as RFC 4180 asks",
        arguments: [
            ("plain", "plain"),
            ("", ""),
            ("a=b", "a=b"),
            ("1-2", "1-2"),
            ("a,b", "\"a,b\""),
            ("say \"hi\"", "\"say \"\"hi\"\"\""),
            ("\"", "\"\"\"\""),
            ("two\nlines", "\"two\nlines\""),
            ("cr\rlf", "\"cr\rlf\""),
            ("é", "é"),
            // Long values are checked eight bytes at a time: the mark in each word position.
            ("abcdefghijklmnopq", "abcdefghijklmnopq"),
            ("abcdefgh,ijk", "\"abcdefgh,ijk\""),
            ("abcdefghijklmno\r", "\"abcdefghijklmno\r\""),
            ("abcdefg\"", "\"abcdefg\"\"\""),
            ("éééééééé\n", "\"éééééééé\n\""),
        ])
    func quoted(value: String, cell: String) {
        #expect(CSVText.cell(value) == cell)
    }

    @Test("a row joins its cells with commas and ends with a line feed; nil is empty")
    func row() {
        var csv = CSVText()
        csv.row(["a", nil, "b,c", "=x"])
        csv.row(["d"])
        #expect(csv.text == "a,,\"b,c\",'=x\nd\n")
    }

    @Test("customers.csv neutralises ids and versions taken from the inputs")
    func customersCSV() throws {
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,original_app_version
                =cmd|' /C calc'!A0,ios,200
                "-2+3,x",ios,-1
                @me,ios,1
                """)
        let text = String(decoding: CustomersCSV.render(run.audit), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == CustomersCSV.columns.joined(separator: ","))
        #expect(lines.count == 5)  // header, three customers, and the final line feed
        #expect(lines.last == "")
        let quotedID = try #require(lines.first { $0.hasPrefix("\"'-2+3,x\",new,unparseable_version,") })
        #expect(quotedID.contains(",'-1,"))
        #expect(lines.dropFirst().contains { $0.hasPrefix("'=cmd|' /C calc'!A0,grandfathered,") })
        #expect(lines.dropFirst().contains { $0.hasPrefix("'@me,grandfathered,") })
        for line in lines.dropFirst() where !line.isEmpty {
            #expect(!["=", "+", "-", "@"].contains(line.first.map(String.init) ?? ""))
        }
    }

    @Test("customers.csv written in drained pieces is the file written whole", arguments: [1, 40, 1 << 20])
    func customersCSVDrained(limit: Int) throws {
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,original_app_version
                a,ios,1.0
                b,ios,2.0
                "c,d",macos,
                """,
            transactions: """
                transaction_id,customer_id,product_id,product_type,purchase_date
                t1,b,pro.lifetime,non_consumable,2025-01-01T00:00:00Z
                """)
        var pieces: [[UInt8]] = []
        let rest = CustomersCSV.write(run.audit, drainingAt: limit) { pieces.append($0.array) }
        #expect(pieces.joined() + rest.array == CustomersCSV.render(run.audit))
        if limit == 1 { #expect(pieces.count == 3 && rest.count == 0, "drained after each customer's row") }
        if limit == 1 << 20 { #expect(pieces.isEmpty, "a small file is never drained") }
    }
}
