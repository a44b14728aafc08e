import Testing

@testable import GrandfatherCore

/// SPEC §2 and §8.2: RFC 4180 CSV, read through the pipeline.
struct CSVReaderTests {
    @Test("quoted commas and doubled quotes are read as text")
    func quoting() throws {
        let run = try AuditFixture.run(
            customers: #"""
                customer_id,platform,original_app_version,storefront
                "a,b",ios,200,"U""S"
                "say ""hi""",ios,"2,0",US
                """#)
        #expect(run.ids == ["a,b", "say \"hi\""])
        #expect(run.result("a,b")?.customer.storefront == "U\"S")
        #expect(run.customerClass("a,b") == .grandfathered)
        #expect(run.result("say \"hi\"")?.customer.originalAppVersion == "2,0")
        #expect(run.flags("say \"hi\"") == ["unparseable_version"])
    }

    @Test("a quoted line break stays in the field, and later records keep their own line numbers")
    func quotedNewline() throws {
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,note
                c1,ios,"one
                two
                three"
                c2,windows,x
                c3,ios,"a
                b"
                c4,,x
                """)
        #expect(run.ids == ["c1", "c3"])
        // c2 starts on line 5, c4 on line 8.
        #expect(run.rejectedLines("customers.csv") == [5, 8])
        #expect(run.input("customers.csv")?.rowsRead == 4)
    }

    @Test("a quoted line break in a field that is not the first still counts lines")
    func quotedNewlineInLaterField() throws {
        let run = try AuditFixture.run(
            customers: "customer_id,note,platform\nc1,\"x\r\ny\ny\",ios\nc2,z,bad\n")
        #expect(run.ids == ["c1"])
        #expect(run.rejectedLines("customers.csv") == [5])
    }

    @Test("a quoted CRLF in the first field counts as one line")
    func quotedCRLFFirstField() throws {
        let run = try AuditFixture.run(
            customers: "customer_id,platform\r\n\"c\r\n1\",ios\r\nc2,bad\r\n")
        #expect(run.ids == ["c\r\n1"])
        #expect(run.rejectedLines("customers.csv") == [4])
    }

    @Test("CRLF line ends: no carriage return left in values, lines counted once")
    func crlf() throws {
        let run = try AuditFixture.run(
            customers: "customer_id,platform,original_app_version\r\nc1,ios,200\r\nc2,ios,300\r\nc3,bad,1\r\n")
        #expect(run.ids == ["c1", "c2"])
        #expect(run.result("c1")?.customer.originalAppVersion == "200")
        #expect(run.customerClass("c1") == .grandfathered)
        #expect(run.flags("c1") == [])
        #expect(run.customerClass("c2") == .new)
        #expect(run.rejectedLines("customers.csv") == [4])
    }

    @Test("a UTF-8 BOM before the header is not part of the first column's name")
    func bom() throws {
        let run = try AuditFixture.run(
            customers: "\u{FEFF}customer_id,platform,original_app_version\nc1,ios,200\n")
        #expect(run.input("customers.csv")?.kind == .customers)
        #expect(run.ids == ["c1"])
        #expect(run.customerClass("c1") == .grandfathered)
    }

    @Test("blank lines are not rows, and do count as lines")
    func blankLines() throws {
        let run = try AuditFixture.run(
            customers: "customer_id,platform\n\nc1,ios\n\n\nc2,bad\n\n")
        #expect(run.ids == ["c1"])
        #expect(run.input("customers.csv")?.rowsRead == 2)
        #expect(run.rejectedLines("customers.csv") == [6])
    }

    @Test("blank CRLF lines are not rows either")
    func blankCRLFLines() throws {
        let run = try AuditFixture.run(
            customers: "customer_id,platform\r\n\r\nc1,ios\r\n\r\nc2,bad\r\n")
        #expect(run.input("customers.csv")?.rowsRead == 2)
        #expect(run.rejectedLines("customers.csv") == [5])
    }

    @Test("columns in any order, unknown columns ignored")
    func reorderedAndUnknownColumns() throws {
        let run = try AuditFixture.run(
            customers: """
                storefront,app_account_token,platform,customer_id,original_app_version
                FR,=1+1,ios,c1,200
                """,
            transactions: """
                purchase_date,junk,product_type,customer_id,transaction_id,product_id,expires_date
                2024-05-01T00:00:00Z,whatever,auto_renewable,c2,t1,pro.monthly,2024-07-01T00:00:00Z
                """)
        let customer = try #require(run.result("c1")?.customer)
        #expect(customer.platform == .ios)
        #expect(customer.storefront == "FR")
        #expect(run.customerClass("c1") == .grandfathered)
        #expect(run.customerClass("c2") == .subscriber)
        #expect(run.audit.rejections.isEmpty)
    }

    @Test("a row with another field count than the header is rejected alone")
    func fieldCountMismatch() throws {
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,original_app_version
                c1,ios,200
                c2,ios,200,extra
                c3,ios
                c4,ios,200
                """)
        #expect(run.ids == ["c1", "c4"])
        #expect(run.rejectedLines("customers.csv") == [3, 4])
        let report = try #require(run.input("customers.csv"))
        #expect(report.rowsRead == 4)
        #expect(report.rowsAccepted == 2)
        #expect(report.rowsRejected == 2)
    }

    @Test("a quote that never closes makes the rest of the file one rejected row")
    func unterminatedQuote() throws {
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform
                c1,ios
                c2,"ios
                c3,ios
                c4,ios

                """)
        #expect(run.ids == ["c1"])
        #expect(run.rejectedLines("customers.csv") == [3])
        let report = try #require(run.input("customers.csv"))
        #expect(report.rowsRead == 2)
        #expect(report.rowsRejected == 1)
    }

    @Test("an unterminated quote in the first field is rejected at its own line")
    func unterminatedQuoteFirstField() throws {
        let run = try AuditFixture.run(customers: "customer_id,platform\nc1,ios\n\n\"c2,ios\nc3,ios\n")
        #expect(run.ids == ["c1"])
        #expect(run.rejectedLines("customers.csv") == [4])
        #expect(run.input("customers.csv")?.rowsRead == 2)
    }

    @Test("a stray quote inside an unquoted field is text")
    func strayQuote() throws {
        let run = try AuditFixture.run(customers: "customer_id,platform,original_app_version\nc1,ios,2\"0\nc2,ios,1\n")
        #expect(run.ids == ["c1", "c2"])
        #expect(run.result("c1")?.customer.originalAppVersion == "2\"0")
        #expect(run.flags("c1") == ["unparseable_version"])
    }

    @Test("values are not trimmed")
    func notTrimmed() throws {
        let run = try AuditFixture.run(
            customers: "customer_id,platform,original_app_version\n"
                + "c1,ios, 200\n"
                + "c2,ios,200 \n"
                + "c3, ios,200\n"
                + "c4 ,ios,200\n")
        #expect(run.result("c1")?.customer.originalAppVersion == " 200")
        #expect(run.customerClass("c1") == .new)
        #expect(run.flags("c1") == ["unparseable_version"])
        #expect(run.flags("c2") == ["unparseable_version"])
        // " ios" is no platform.
        #expect(run.rejectedLines("customers.csv") == [4])
        #expect(run.ids == ["c1", "c2", "c4 "])
    }

    @Test("an empty field is absent")
    func emptyIsAbsent() throws {
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,original_app_version,environment,original_purchase_date
                c1,ios,,,
                """)
        let customer = try #require(run.result("c1")?.customer)
        #expect(customer.originalAppVersion == nil)
        #expect(customer.originalPurchaseDate == nil)
        #expect(customer.environment == .production)
        #expect(run.flags("c1") == ["missing_original_version"])
    }

    @Test("the last record needs no line end; a header-only file has no rows")
    func lastLineAndHeaderOnly() throws {
        let run = try AuditFixture.run([
            FixtureFile("customers.csv", "customer_id,platform\nc1,ios"),
            FixtureFile("more.csv", "customer_id,platform\n"),
        ])
        #expect(run.ids == ["c1"])
        #expect(run.input("more.csv")?.rowsRead == 0)
    }

    @Test("records that straddle read chunks keep their content and line numbers")
    func largeFile() throws {
        // About 1.7 MB: more than one read chunk, with multi-line records throughout.
        var text = "customer_id,platform,original_app_version,note\n"
        var line = 2
        var badLines: [Int] = []
        for index in 0..<40_000 {
            let id = "c" + String(index + 100_000)
            if index % 9_999 == 5 {
                text += "\(id),bad,1,x\n"
                badLines.append(line)
                line += 1
            } else if index % 7 == 0 {
                text += "\(id),ios,200,\"multi\nline, \"\"quoted\"\"\"\n"
                line += 2
            } else {
                text += "\(id),ios,300,plain\n"
                line += 1
            }
        }
        let run = try AuditFixture.run(customers: text)
        #expect(run.audit.customers.count == 40_000 - badLines.count)
        #expect(run.rejectedLines("customers.csv") == badLines)
        #expect(run.customerClass("c100007") == .grandfathered)
        #expect(run.customerClass("c139999") == .new)
        #expect(run.input("customers.csv")?.rowsRead == 40_000)
    }
}
