import Foundation

/// Issue 51: what the sources added after the first ones brought back, one row per finding
/// (`51.1`…`51.16`). Each failed on the build before the issue and passes since the commit its
/// row's test names in docs/Hardening.md's history.
extension HostileCatalogue {
    /// A stored `subscriptionsv2` response of `token`, one line, linked to `linked` when given.
    static func playResponse(_ token: String, linked: String? = nil, account: String? = nil) -> String {
        var fields = [#""purchaseToken":"\#(token)""#]
        if let linked { fields.append(#""linkedPurchaseToken":"\#(linked)""#) }
        if let account { fields.append(#""externalAccountIdentifiers":{"obfuscatedExternalAccountId":"\#(account)"}"#) }
        fields += [
            #""startTime":"2024-04-01T00:00:00Z","subscriptionState":"SUBSCRIPTION_STATE_ACTIVE""#,
            #""lineItems":[{"productId":"pro.monthly","expiryTime":"2024-07-01T00:00:00Z"}]"#,
        ]
        return "{" + fields.joined(separator: ",") + "}\n"
    }

    /// App Store Connect's Summary Sales Report, tab-separated: its header and one row a title
    /// and units, each a paid copy of app 111 sold on 2024-02-01.
    static func appleSalesReport(_ rows: [(title: String, units: String)]) -> String {
        let header = [
            "Provider", "Provider Country", "SKU", "Developer", "Title", "Version", "Product Type Identifier", "Units",
            "Developer Proceeds", "Begin Date", "End Date", "Customer Currency", "Country Code", "Currency of Proceeds",
            "Apple Identifier", "Customer Price", "Promo Code", "Parent Identifier", "Subscription", "Period",
            "Category", "CMB", "Device", "Supported Platforms", "Proceeds Reason", "Preserved Pricing", "Client",
            "Order Type",
        ]
        return
            ([header]
            + rows.map { row in
                [
                    "APPLE", "US", "maps", "Dev Ltd", row.title, "1.0", "1", row.units, "2.79", "02/01/2024",
                    "02/01/2024",
                    "USD", "US", "USD", "111", "3.99", "", "", "", "", "Navigation", "", "iPhone", "iOS", "", "", "",
                    "",
                ]
            }).map { $0.joined(separator: "\t") + "\n" }.joined()
    }

    static let kit: [HostileCase] = [
        .read(
            "20,000 Google Play responses linked into one chain (`linkedPurchaseToken` t<i+1> → t<i>, 3 MB)", "51.1",
            [.stdout("2 customers ("), .file("out/latest/customers.csv", contains: "p0,")],
            make: HostileCase.auditing(
                "chain.jsonl",
                (0..<20_000).map {
                    playResponse("t\($0)", linked: $0 == 0 ? nil : "t\($0 - 1)", account: $0 == 0 ? "p0" : nil)
                }
                .joined())),
        .read(
            "20,000 Google Play responses linked into one loop (t<i+1> → t<i>, t0 → t19999)", "51.1",
            [.stdout("2 customers ("), .file("out/latest/customers.csv", contains: "p0,")],
            make: HostileCase.auditing(
                "loop.jsonl",
                (0..<20_000).map {
                    playResponse("t\($0)", linked: "t\(($0 + 19_999) % 20_000)", account: $0 == 0 ? "p0" : nil)
                }
                .joined())),
        .read(
            "seven Google Play responses stored one a line as `{\"subscription\": {…its own purchaseToken…}}`", "51.2",
            [.stdout("8 customers (")],
            make: HostileCase.auditing(
                "wrapped.jsonl",
                (1...7).map { #"{"subscription":"# + playResponse("w\($0)", account: "p\($0)").dropLast() + "}\n" }
                    .joined())),
        .read(
            "an App Store sales report of 1,000 copies whose first Title begins with `\"`", "51.4",
            [.file("out/latest/summary.md", contains: "1000 paid copies before the cutover")],
            make: HostileCase.auditing(
                "S_D_quoted.txt", appleSalesReport((0..<1_000).map { ($0 == 0 ? "\"Maps" : "Maps", "1") }))),
        .read(
            "an App Store sales report of 8,193 rows of 1,099,511,627,775 units (past 2^53 together)", "51.7",
            [.rejected("1099511627775 copies would carry the copies counted past 9007199254740992")],
            make: HostileCase.auditing(
                "S_D_huge.txt", appleSalesReport(Array(repeating: ("Maps", "1099511627775"), count: 8_193)))),
        .read(
            "a licensing verdict `LICENSED` at `timestampMillis: \"0\"` (1970), under a date basis", "51.9",
            [.rejected("is before 2010-07-27, when Google Play's licensing began"), .stdout("(0 grandfathered")]
        ) { cli in
            try cli.write("date.json", datePolicy)
            try cli.write(
                "verdicts.jsonl",
                #"{"customer_id":"v1","requestDetails":{"timestampMillis":"0"},"#
                    + #""accountDetails":{"appLicensingVerdict":"LICENSED"}}"# + "\n")
            return .arguments(dateAudit + ["good.csv", "verdicts.jsonl"])
        },
        .read(
            "a customer whose `order_number` is a JSON array, and one whose is an object", "51.10",
            [.rejected("order_number holds a JSON object or array"), .stdout("3 rows read, 2 rejected")],
            make: HostileCase.auditing(
                "customers.jsonl",
                #"{"customer_id":"a1","platform":"android","order_number":["GPA.1"]}"# + "\n"
                    + #"{"customer_id":"a2","platform":"android","order_number":{"id":"GPA.2"}}"# + "\n")),
        .read(
            "two Google Play notifications with one `messageId` and different content (renewed, then revoked), in two files",
            "51.3", [.file("out/latest/customers.csv", contains: "refunded")]
        ) { cli in
            try cli.write("responses.jsonl", playResponse("tok", account: "r1"))
            try cli.write("renewed.jsonl", playEnvelope("m1", token: "tok", type: 2))
            try cli.write("revoked.jsonl", playEnvelope("m1", token: "tok", type: 12))
            return .audit(["good.csv", "responses.jsonl", "renewed.jsonl", "revoked.jsonl"])
        },
        .read(
            "1,200 App Store sales reports of one row each, all of one day", "51.6",
            [
                .file(
                    "out/latest/summary.json",
                    contains: "S_D_0000.txt, S_D_0001.txt, S_D_0002.txt and 1197 more reports cover overlapping periods"
                )
            ]
        ) { cli in
            let names = (0..<1_200).map { "S_D_" + String(String($0 + 10_000).dropFirst()) + ".txt" }
            for (index, name) in names.enumerated() {
                try cli.write(name, appleSalesReport([("Maps", "\(index + 1)")]))
            }
            return .audit(["good.csv"] + names)
        },
        .read(
            "a Google Play sales report of 4 refunds of orders no report given charges", "51.8",
            [.file("out/latest/summary.md", contains: "0 paid copies before the cutover, net of 0 returns")],
            make: HostileCase.auditing(
                "salesreport_202402.csv",
                "Order Number,Order Charged Date,Order Charged Timestamp,Financial Status,Product Title,Product ID,"
                    + "Product Type,Currency of Sale,Item Price,Charged Amount,Country of Buyer\n"
                    + (1...4).map {
                        "GPA.\($0),2024-02-10,1707523200,Refund,Maps,com.example.maps,paidapp,USD,3.99,3.99,US\n"
                    }
                    .joined())),
        .read(
            "an App Store sales report whose returns (−5) outnumber its paid copies (1)", "51.8",
            [.file("out/latest/summary.md", contains: "the reports return 4 copies more than they sell")],
            make: HostileCase.auditing("S_D_returns.txt", appleSalesReport([("Maps", "1"), ("Maps", "-5")]))),
    ]

    /// A Pub/Sub push envelope around a subscription notification of `token`, at 2024-05-01.
    static func playEnvelope(_ id: String, token: String, type: Int) -> String {
        let notification =
            #"{"version":"1.0","packageName":"com.example.maps","eventTimeMillis":"1714521600000","#
            + #""subscriptionNotification":{"version":"1.0","notificationType":\#(type),"purchaseToken":"\#(token)"}}"#
        return #"{"message":{"data":"\#(Data(notification.utf8).base64EncodedString())","messageId":"\#(id)"}}"# + "\n"
    }

    /// A policy whose basis is the purchase date, and an audit under it.
    static let datePolicy = """
        {"cutover": {"date": "2024-03-01T00:00:00Z", "basis": "date"},
         "grandfathered_entitlements": ["premium"], "max_rejected_fraction": 1}
        """
    static let dateAudit = ["audit", "--policy", "date.json", "--as-of", "2024-06-01T00:00:00Z", "--out", "out"]
}
