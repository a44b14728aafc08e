import Foundation
import Testing

@testable import GrandfatherCore

/// A Scheduled Data Export file read whole: written in the shape of RevenueCat's published v5
/// example (its columns shuffled, unknown and loader-added columns, Python-style booleans,
/// quoted JSON columns with a line break inside) with the spellings of other versions mixed
/// in. The published file has no licence, so this one is our own.
struct ExportFileTests {
    static let header = [
        "store", "_file_name", "start_time", "rc_original_app_user_id", "is_auto_renewable", "product_identifier",
        "custom_subscriber_attributes", "store_transaction_id", "renewal_number", "is_sandbox",
        "entitlement_identifiers", "end_time", "purchase_price_in_purchased_currency", "purchased_currency",
        "original_store_transaction_id", "updated_at",
    ]

    static let rows = [
        // Line 2: an App Store renewal, as the example writes it.
        "app_store,t_1.csv,2023-02-02 21:40:15,$RCAnonymousID:1,True,pro_monthly,"
            + "\"{\"\"feature\"\": {\"\"value\"\": \"\"1\"\", \"\"updated_at_ms\"\": 1672549200}}\",1001,2,False,"
            + "['full_access'],2023-03-02 21:40:15,4.99,EUR,1000,2023-02-02 21:40:20",
        // Line 3: Stripe, whose ids repeat across renewals; upgraded-template spellings.
        "stripe,t_1.csv,2023-12-12 1:35:31,user-2,TRUE,web_yearly,,ch_9,3,FALSE,[premium],"
            + "2024-12-12 1:35:31,49.00,USD,ch_9,2023-12-12 1:35:40",
        // Lines 4-5: a promotional grant, before-v4 spellings, a JSON column across two lines.
        "promotional,t_1.csv,2023-05-01 00:00:00,user-3,f,rc_promo_pro_lifetime,\"{\"\"note\"\":\n\"\"gift\"\"}\","
            + "promo_3,1,f,\"{pro,full_access}\",,,,,2023-05-01 00:00:00",
        // Line 6: a boolean no export writes.
        "app_store,t_1.csv,2023-02-02 21:40:15,user-4,maybe,pro_monthly,,1004,1,False,[],,,,,",
        // Line 7: a row cut short.
        "app_store,t_1.csv,2023-02-02 21:40:15,user-5",
        // Line 8: no start time.
        "play_store,t_1.csv,,user-6,True,pro_monthly,,GPA.1,1,False,[],,,,,",
    ]

    static func write() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sde-\(UUID()).csv").path
        let text = ([header.joined(separator: ",")] + rows).joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("the header is recognised by its required columns, in any order")
    func recognition() {
        #expect(ExportFile.recognizes(header: Self.header))
        #expect(ExportFile.recognizes(header: Self.header.reversed()))
        #expect(!ExportFile.recognizes(header: Self.header.filter { $0 != "store_transaction_id" }))
        #expect(!ExportFile.recognizes(header: RecordKind.transactions.fieldNames))
    }

    @Test("every row is read or rejected with its line and reason")
    func rows() throws {
        let path = try Self.write()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let contents = try ExportFileContents(path: path, header: Self.header)

        #expect(contents.transactions.map(\.line) == [2, 3, 4])
        let ids = contents.transactions.map { $0.fields[.transactionID] }
        #expect(ids == ["1001", "ch_9#3", "promo_3#1"])
        let renewal = contents.transactions[0]
        #expect(renewal.fields[.customerID] == "$RCAnonymousID:1")
        #expect(renewal.fields[.productType] == "auto_renewable")
        // Times are spilled typed, read once from the export's text.
        #expect(renewal.fields[.purchaseDate] == "2023-02-02T21:40:15Z")
        #expect(renewal.transaction.entitlements == ["full_access"])
        #expect(renewal.fields[.price] == "4.99")
        #expect(renewal.transaction.updatedAt?.iso8601 == "2023-02-02T21:40:20Z")
        #expect(contents.transactions[1].fields[.purchaseDate] == "2023-12-12T01:35:31Z")
        let grant = contents.transactions[2]
        #expect(grant.transaction.store == .promotional)
        #expect(grant.fields[.productType] == "non_consumable")
        #expect(grant.transaction.entitlements == ["pro", "full_access"])
        #expect(grant.fields[.expiresDate] == nil)

        #expect(contents.rejections.map(\.line) == [6, 7, 8])
        #expect(contents.rejections[0].reason == "is_auto_renewable is not a boolean: 'maybe'")
        #expect(contents.rejections[1].reason == "4 fields, header has \(Self.header.count)")
        #expect(contents.rejections[2].reason == "start_time is missing")
    }

    @Test("through a run, every row is counted: accepted, superseded or rejected, with its reason")
    func accounting() throws {
        // Line 9: the renewal of line 2 delivered again, later, refunded.
        let redelivery =
            "app_store,t_2.csv,2023-02-02 21:40:15,$RCAnonymousID:1,True,pro_monthly,,1001,2,False,['full_access'],"
            + "2023-03-02 21:40:15,4.99,EUR,1000,2023-02-10 08:00:00"
        let text = ([Self.header.joined(separator: ",")] + Self.rows + [redelivery]).joined(separator: "\n") + "\n"
        let run = try AuditFixture.run([FixtureFile("export.csv", text)])
        let report = try #require(run.input("export.csv"))
        #expect(report.format == .revenueCatExport)
        #expect(
            (report.rowsRead, report.rowsAccepted, report.superseded, report.rowsRejected) == (7, 4, 1, 3),
            "read = accepted (the superseded among them) + rejected")
        #expect(
            run.rejections("export.csv").map { "\($0.line): \($0.reason)" } == [
                "6: is_auto_renewable is not a boolean: 'maybe'", "7: 4 fields, header has \(Self.header.count)",
                "8: start_time is missing",
            ])
    }
}
