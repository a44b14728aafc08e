import Foundation
import PropertyBased
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// `map --suggest` (issue 52) on exports shaped as teams write them: renamed columns, other
/// spellings, epoch seconds, local times, US dates, JSON Lines.
@Suite struct MappingSuggesterTests {
    private func sample(_ name: String, _ text: String) throws -> MappedSample {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("map-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return try MappedSample.read(url.path)
    }

    @Test func renamedColumnsEpochSecondsAndOtherSpellings() throws {
        let file = MappingSuggester.file(
            try sample(
                "purchases-2026-11-29.csv",
                """
                txn_id,user_id,sku,type,purchased_at,expires_at,status,is_sandbox,amount,currency_code,note
                t1,u1,premium_monthly,subscription,1741107600,1743786000,active,false,4.99,USD,
                t2,u2,lifetime,Lifetime,1741021200,,,false,29.99,USD,gift
                t3,u3,coins_100,consumable,1741021200,,,TRUE,0.99,EUR,
                t4,u3,premium_yearly,auto_renewable,1741021200,1772557200,Billing Retry,false,39.99,EUR,

                """))
        #expect(file.kind == .transactions)
        #expect(file.name == "purchases-*-*-*.csv")
        #expect(
            file.columns == [
                "transaction_id": "txn_id", "customer_id": "user_id", "product_id": "sku", "product_type": "type",
                "purchase_date": "purchased_at", "expires_date": "expires_at", "renewal_state": "status",
                "environment": "is_sandbox", "price": "amount", "currency": "currency_code",
            ])
        #expect(file.values["product_type"] == ["subscription": "auto_renewable", "Lifetime": "non_consumable"])
        #expect(file.values["environment"] == ["false": "production", "TRUE": "sandbox"])
        #expect(file.values["renewal_state"] == ["active": "subscribed", "Billing Retry": "in_billing_retry"])
        #expect(file.times["purchase_date"] == Mapping.Time(form: .epochSeconds, zone: nil))
        #expect(file.times["expires_date"] == Mapping.Time(form: .epochSeconds, zone: nil))
        #expect(file.undecided.isEmpty, "\(file.undecided)")
    }

    @Test func localTimesAndUSDatesAskForTheirZone() throws {
        let file = MappingSuggester.file(
            try sample(
                "orders.csv",
                """
                Order ID,Account ID,Product,Purchase Type,Bought At,Refunded At,Platform
                o1,a1,pro,one_time,2025-03-04 17:00:00,,iPhone
                o2,a2,pro,Subscription,2025-03-03 09:30:00,03/21/2025,Android
                o3,a3,pro,one_time,2025-02-28 23:59:59,,Apple

                """))
        #expect(file.kind == .transactions)
        #expect(file.columns["transaction_id"] == "Order ID")
        #expect(file.columns["customer_id"] == "Account ID")
        #expect(file.columns["product_type"] == "Purchase Type")
        #expect(file.columns["purchase_date"] == "Bought At")
        #expect(file.columns["revocation_date"] == "Refunded At")
        // Platform is no field of a transaction: the column is left out.
        #expect(!file.columns.values.contains("Platform"))
        #expect(file.times["purchase_date"] == Mapping.Time(form: .dateTime, zone: nil))
        #expect(file.times["revocation_date"] == Mapping.Time(form: .usDate, zone: nil))
        #expect(file.undecided.contains { $0.hasPrefix("times.purchase_date.zone:") })
        #expect(file.undecided.contains { $0.hasPrefix("times.revocation_date.zone:") })
        #expect(file.values["product_type"] == ["one_time": "non_consumable", "Subscription": "auto_renewable"])
    }

    @Test func jsonLinesCustomersWithASpellingItDoesNotKnow() throws {
        let file = MappingSuggester.file(
            try sample(
                "users.jsonl",
                """
                {"uid": "u1", "os": "iPhone", "app_version": "3.1", "first_seen_at": 1733047200000, "env": "prod"}
                {"uid": "u2", "os": "Tablet", "app_version": "2.0", "first_seen_at": 1683966600000, "env": "test"}
                {"uid": "u3", "os": "ios", "app_version": null, "first_seen_at": 1741165200000, "env": "prod"}

                """))
        #expect(file.kind == .customers)
        #expect(
            file.columns == [
                "customer_id": "uid", "platform": "os", "original_app_version": "app_version",
                "original_purchase_date": "first_seen_at", "environment": "env",
            ])
        #expect(file.values["platform"] == ["iPhone": "ios"])
        #expect(file.unknownSpellings["platform"] == ["Tablet"])
        #expect(file.values["environment"] == ["prod": "production", "test": "sandbox"])
        #expect(file.times["original_purchase_date"] == Mapping.Time(form: .epochMilliseconds, zone: nil))
        #expect(file.undecided.count == 1)
        #expect(file.undecided.first?.hasPrefix("values.platform: \"Tablet\"") == true)
    }

    @Test func timeFormsAsTheirTextTellsThem() {
        #expect(TimeForm.guess("1741107600")?.form == .epochSeconds)
        #expect(TimeForm.guess("1741107600000")?.form == .epochMilliseconds)
        #expect(
            TimeForm.guess("2025-03-04T17:00:00Z").map { ($0.form, $0.zoned) } ?? (.date, false) == (.iso8601, true))
        #expect(TimeForm.guess("2025-03-04T17:00:00").map { $0.zoned } == false)
        #expect(TimeForm.guess("2025-03-04T17:00:00-08:00").map { $0.zoned } == true)
        #expect(TimeForm.guess("2025-03-04 17:00:00")?.form == .dateTime)
        #expect(TimeForm.guess("2025-03-04")?.form == .date)
        #expect(TimeForm.guess("03/21/2025")?.form == .usDate)
        #expect(TimeForm.guess("21/03/2025")?.form == .dayFirstDate)
        #expect(TimeForm.guess("03/04/2025")?.ambiguous == true)
        #expect(TimeForm.guess("yesterday") == nil)
        #expect(TimeForm.guess("12345") == nil)
    }

    /// Whatever the header and whatever the names, a column is given to one field at most,
    /// and only to a field it is named like. Headers are drawn from every field's names and
    /// synonyms, in other cases and with other separators, repeated, shuffled, with names of
    /// no field; half the time against a vocabulary whose fields share names (`date` for
    /// three of them), which the shipped one avoids but a column may still meet.
    @Test func noColumnIsMappedToTwoFields() {
        var random = Xoshiro(seed: (52, 1, 0, 1))
        let names = MappedVocabulary.synonyms.flatMap { [$0.key] + $0.value } + ["note", "misc", "Order Number"]
        for round in 0..<2_000 {
            var synonyms = MappedVocabulary.synonyms
            if round % 2 == 1 {
                // Every field also answers to a few names drawn from every field's.
                for field in synonyms.keys {
                    synonyms[field, default: []] += (0..<3).map { _ in
                        MappedVocabulary.folded(names.randomElement(using: &random) ?? "")
                    }
                }
            }
            let count = Int.random(in: 1...24, using: &random)
            let header = (0..<count).map { _ -> String in
                let name = names.randomElement(using: &random) ?? "x"
                switch Int.random(in: 0..<4, using: &random) {
                case 0: return name.uppercased()
                case 1: return name.replacingOccurrences(of: "_", with: " ")
                case 2: return name.replacingOccurrences(of: "id", with: "_ID")
                default: return name
                }
            }
            for kind in [RecordKind.customers, .transactions] {
                let assigned = MappingSuggester.columns(header, kind: kind, synonyms: synonyms)
                #expect(Set(assigned.values).count == assigned.count, "\(header): \(assigned)")
                for (field, place) in assigned {
                    let spellings = [MappedVocabulary.folded(field)] + (synonyms[field] ?? [])
                    #expect(spellings.contains(MappedVocabulary.folded(header[place])), "\(field) ← \(header[place])")
                }
            }
        }
    }
}
