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

    /// Stored responses of `tokens`, one a line, each naming customer `c` and its token's
    /// number; `broken`'s last byte made one that is not UTF-8 (0xFF).
    static func playResponses(_ tokens: [String], breaking broken: String) -> [UInt8] {
        let text = tokens.map { playResponse($0, account: "c" + $0.filter(\.isNumber)) }.joined()
        return Array(text.utf8).replacing(Array(broken.utf8), with: Array(broken.utf8.dropLast()) + [0xFF])
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

    static let kit: [HostileCase] = kitPlay + kitSales + kitReaders

    /// Google Play's subscription files: chains, tokens, redeliveries, provenance.
    static let kitPlay: [HostileCase] = [
        .read(
            "20,000 Google Play responses linked into one chain (`linkedPurchaseToken` t<i+1> → t<i>, 3 MB)", "51.1",
            [.stdout("2 customers ("), .file("out/latest/customers.csv", contains: "p0,")],
            make: HostileCase.auditing(
                "chain.jsonl",
                (0..<20_000).map { (index: Int) -> String in
                    playResponse(
                        "t\(index)", linked: index == 0 ? nil : "t\(index - 1)", account: index == 0 ? "p0" : nil)
                }
                .joined())),
        .read(
            "20,000 Google Play responses linked into one loop (t<i+1> → t<i>, t0 → t19999)", "51.1",
            [.stdout("2 customers ("), .file("out/latest/customers.csv", contains: "p0,")],
            make: HostileCase.auditing(
                "loop.jsonl",
                (0..<20_000).map { (index: Int) -> String in
                    playResponse("t\(index)", linked: "t\((index + 19_999) % 20_000)", account: index == 0 ? "p0" : nil)
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
            "two Google Play notifications with one `messageId` and different content (renewed, then revoked), in two files",
            "51.3", [.file("out/latest/customers.csv", contains: "refunded")]
        ) { cli in
            try cli.write("responses.jsonl", playResponse("tok", account: "r1"))
            try cli.write("renewed.jsonl", playEnvelope("m1", token: "tok", type: 2))
            try cli.write("revoked.jsonl", playEnvelope("m1", token: "tok", type: 12))
            return .audit(["good.csv", "responses.jsonl", "renewed.jsonl", "revoked.jsonl"])
        },
        .read(
            "a customer known only from a stored Google Play subscription, with no RevenueCat file given", "51.12",
            [
                .snapshot(
                    "SELECT customer_id, facts_source FROM customers ORDER BY customer_id",
                    is: "good|customers_file\np1|google_play_subscription")
            ],
            make: HostileCase.auditing("subscriptions.jsonl", playResponse("tok", account: "p1"))),
        .read(
            "a stored Google Play response whose `packageName` is another app's, under a policy naming the paid app",
            "51.16", [.rejected("packageName 'com.other.app' is not an app sales.paid_app names")]
        ) { cli in
            try cli.write("paid.json", paidAppPolicy)
            try cli.write(
                "subscriptions.jsonl",
                #"{"packageName":"com.other.app","# + playResponse("tok", account: "p1").dropFirst())
            return .arguments(paidAppAudit + ["good.csv", "subscriptions.jsonl"])
        },
    ]

    /// The stores' sales reports and the claims set against them.
    static let kitSales: [HostileCase] = [
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
            "one Google Play order charged twice in a sales report, after the cutover (first) and before it, and claimed",
            "51.3",
            [
                .file("out/latest/customers.csv", contains: "c1,grandfathered,"),
                .file("out/latest/summary.md", contains: "1 paid copy before the cutover"),
            ]
        ) { cli in
            try cli.write("date.json", datePolicy)
            try cli.write(
                "salesreport_202403.csv",
                "Order Number,Order Charged Date,Order Charged Timestamp,Financial Status,Product ID,Product Type,"
                    + "Charged Amount,Country of Buyer\nGPA.1,2024-03-10,1710028800,Charged,com.example.maps,paidapp,"
                    + "3.99,US\nGPA.1,2024-02-10,1707523200,Charged,com.example.maps,paidapp,3.99,US\n")
            try cli.write("claims.csv", "customer_id,order_number\nc1,GPA.1\n")
            return .arguments(dateAudit + ["good.csv", "salesreport_202403.csv", "claims.csv"])
        },
        .read(
            "an App Store sales report whose returns (−5) outnumber its paid copies (1)", "51.8",
            [.file("out/latest/summary.md", contains: "the reports return 4 copies more than they sell")],
            make: HostileCase.auditing("S_D_returns.txt", appleSalesReport([("Maps", "1"), ("Maps", "-5")]))),
        .read(
            "a claimed order number pasted with no-break spaces around it (U+00A0)", "51.16",
            [
                .rejected("order_number begins or ends with white space (U+00A0); values are never trimmed"),
                .snapshot("SELECT count(*) FROM customer_flags WHERE flag = 'order_not_found'", is: "0"),
            ]
        ) { cli in
            try cli.write(
                "salesreport_202402.csv",
                "Order Number,Order Charged Date,Order Charged Timestamp,Financial Status,Product ID,Product Type,"
                    + "Charged Amount,Country of Buyer\nGPA.1,2024-02-10,1707523200,Charged,com.example.maps,paidapp,"
                    + "3.99,US\n")
            try cli.write("claims.csv", "customer_id,order_number\nc1,\u{00A0}GPA.1\u{00A0}\n")
            return .audit(["good.csv", "salesreport_202402.csv", "claims.csv"])
        },
        .read(
            "an App Store sales report whose Country Code is `XX`", "51.16",
            [.rejected("Country Code 'XX' is not an ISO 3166-1 country code")],
            make: HostileCase.auditing(
                "S_D_xx.txt",
                appleSalesReport([("Maps", "1")]).replacingOccurrences(of: "\tUS\tUSD\t111", with: "\tXX\tUSD\t111"))),
        .read(
            "one App Store sales report given plain and gzip-compressed", "51.16",
            [.file("out/latest/summary.md", contains: "3 paid copies before the cutover")]
        ) { cli in
            try cli.write("S_D_one.txt", appleSalesReport([("Maps", "3")]))
            return .script(
                "gzip -c S_D_one.txt > S_D_one.txt.gz && exec \"$GRANDFATHER\" "
                    + HostileCase.auditArguments.joined(separator: " ") + " good.csv S_D_one.txt S_D_one.txt.gz")
        },
        .read(
            "an App Store sales report through `normalize` and `audit --results` (the warehouse's answers)", "51.11",
            [.file("res/latest/summary.md", contains: "3 paid copies before the cutover")]
        ) { cli in
            try cli.write("S_D_one.txt", appleSalesReport([("Maps", "3")]))
            return .script(warehouseRoundTrip(["good.csv", "S_D_one.txt"]))
        },
    ]

    /// A RevenueCat export whose `store_transaction_id` two customers share: a non-renewing row
    /// of one product (its type from the policy, no term of its own) and another product's,
    /// bought a year later with a term of a year.
    static let sharedTransactionExport = """
        store,rc_original_app_user_id,product_identifier,start_time,end_time,is_auto_renewable,is_sandbox,\
        store_transaction_id,original_store_transaction_id,renewal_number,refunded_at,purchased_currency,\
        purchase_price_in_purchased_currency,entitlement_identifiers,ownership_type,updated_at,product_duration
        app_store,rc-a,pass.old,2023-01-26 00:00:00,2024-03-31 00:00:00,False,False,t2,t2,,,USD,4.99,['premium'],PURCHASED,,
        app_store,rc-b,pass.year,2024-03-01 01:00:00,,False,False,t2,t2,,,USD,4.99,['premium'],PURCHASED,,P1Y

        """

    /// `audit` of `inputs` into `out`, `normalize` of them into `n`, the warehouse's three result
    /// tables taken from the audit's snapshot (what a warehouse that agrees exports), then
    /// `audit --results n` into `res`: a round trip through the warehouse path with no engine.
    static func warehouseRoundTrip(_ inputs: [String]) -> String {
        let run = "\"$GRANDFATHER\" "
        let options = " --policy policy.json --as-of 2024-06-01T00:00:00Z "
        let tables = [
            (
                "gf_customers", "customer_id,platform,original_app_version,original_purchase_date,environment,class",
                "customers"
            ),
            ("gf_customer_flags", "customer_id,flag", "customer_flags"),
            ("gf_entitlements", "customer_id,entitlement,source,transaction_id,expires_date", "entitlements"),
        ]
        let exports = tables.map { name, columns, table in
            "printf '%s\\n' '\(columns)' > n/\(name).csv && "
                + "sqlite3 -csv out/latest/snapshot.sqlite 'SELECT \(columns) FROM \(table)' >> n/\(name).csv"
        }
        return [
            run + "audit" + options + "--out out " + inputs.joined(separator: " ") + " > /dev/null",
            run + "normalize" + options + "--out n " + inputs.joined(separator: " ") + " > /dev/null",
        ].joined(separator: " && ") + " && " + exports.joined(separator: " && ") + " && exec " + run
            + "audit --results n"
            + options + "--out res"
    }

    /// What any reader meets: first lines, recognition, encodings, ids.
    static let kitReaders: [HostileCase] = [
        .read(
            "a licensing verdict `LICENSED` at `timestampMillis: \"0\"` (1970), under a date basis", "51.9",
            [.rejected("is before 2010-07-27, when Google Play's licensing began"), .stdout("(0 grandfathered")]
        ) { cli in
            try cli.write("date.json", datePolicy)
            let verdict: String =
                #"{"customer_id":"v1","requestDetails":{"timestampMillis":"0"},"#
                + #""accountDetails":{"appLicensingVerdict":"LICENSED"}}"#
            try cli.write("verdicts.jsonl", verdict + "\n")
            let arguments: [String] = dateAudit + ["good.csv", "verdicts.jsonl"]
            return .arguments(arguments)
        },
        .read(
            "a customer whose `order_number` is a JSON array, and one whose is an object", "51.10",
            [.rejected("order_number holds a JSON object or array"), .stdout("3 rows read, 2 rejected")],
            make: HostileCase.auditing(
                "customers.jsonl",
                #"{"customer_id":"a1","platform":"android","order_number":["GPA.1"]}"# + "\n"
                    + #"{"customer_id":"a2","platform":"android","order_number":{"id":"GPA.2"}}"# + "\n")),
        .read(
            "a licensing verdicts file whose first verdict lacks `customer_id`", "51.13",
            [.rejected("customer_id is missing: a stored verdict names"), .stdout("3 rows read, 1 rejected")],
            make: HostileCase.auditing(
                "verdicts.jsonl",
                #"{"requestDetails":{"timestampMillis":"1707523200000"},"accountDetails":{"appLicensingVerdict":"LICENSED"}}"#
                    + "\n"
                    + #"{"customer_id":"v2","requestDetails":{"timestampMillis":"1707523200000"},"#
                    + #""accountDetails":{"appLicensingVerdict":"LICENSED"}}"# + "\n")),
        .refused(
            "an App Store Connect financial report (not the Summary Sales Report)", "51.14",
            .line(
                "fin.txt: error: an App Store Connect financial report (Start Date, Partner Share, …), which Grandfather does not read: give the Summary Sales Report of the same months (docs/Sales.md)"
            ),
            make: HostileCase.auditing(
                "fin.txt",
                "Start Date\tEnd Date\tUPC\tISRC/ISBN\tVendor Identifier\tQuantity\tPartner Share\tExtended Partner Share\n"
                    + "01/01/2024\t01/31/2024\t\t\tmaps\t3\t0.70\t2.10\n")),
        .refused(
            "a customers file in UTF-16 with no byte order mark", "51.14",
            .line(
                "u16.csv: error: the file looks like UTF-16 with no byte order mark (every other byte is NUL): save it as UTF-8, or as UTF-16 with its byte order mark"
            ),
            make: HostileCase.auditing(
                "u16.csv",
                bytes: littleEndian(Array("customer_id,platform\nc1,ios\n".utf16)))),
        .refused(
            "a pretty-printed JSON document that is no record any reader takes", "51.14",
            .line(
                "doc.json: error: a JSON file whose first object has the keys 'foo', 'bar': no reader takes it; "
                    + "canonical customers need customer_id and platform; transactions need transaction_id, "
                    + "customer_id, product_id, product_type and purchase_date (docs/Inputs.md lists every format read)"
            ),
            make: HostileCase.auditing("doc.json", "{\n  \"foo\": 1,\n  \"bar\": [1,\n 2]\n}\n")),
        .read(
            "a claimed orders file whose header is quoted (`\"customer_id\",\"order_number\"`)", "51.14",
            [.file("out/latest/summary.md", contains: "claimed-orders")],
            make: HostileCase.auditing("claims.csv", "\"customer_id\",\"order_number\"\nc1,GPA.1\n")),
        .read(
            "an LVL verdict whose packageName is empty, under a policy naming the paid app", "51.16",
            [.stdout("2 rows read, 0 rejected")]
        ) { cli in
            try cli.write("paid.json", paidAppPolicy)
            try cli.write("verdicts.jsonl", #"{"customer_id":"v1","signed_data":"0|1||7|u|1707523200000"}"# + "\n")
            return .arguments(paidAppAudit + ["good.csv", "verdicts.jsonl"])
        },
        .read(
            "a UTF-16 customers file whose second row holds a lone surrogate", "51.16",
            [.rejected("is not valid UTF-8"), .stdout("4 rows read, 1 rejected")],
            make: HostileCase.auditing(
                "u16.csv",
                bytes: [0xFF, 0xFE] + littleEndian(Array("customer_id,platform\nc1,ios\nc2".utf16) + [0xD800])
                    + littleEndian(Array(",ios\nc3,ios\n".utf16)))),
        .read(
            "a canonical JSON customer whose `customer_id` holds a lone surrogate (`\\ud800`)", "51.16",
            [.rejected("customer_id is not valid UTF-8"), .stdout("3 rows read, 1 rejected")],
            make: HostileCase.auditing(
                "customers.jsonl",
                #"{"customer_id": "c\ud800", "platform": "ios"}"# + "\n" + #"{"customer_id": "c2", "platform": "ios"}"#
                    + "\n")),
        .read(
            "a Google Play response whose `purchaseToken` is not UTF-8, after a plain one", "51.16",
            [.rejected("purchaseToken is not valid UTF-8"), .stdout("3 rows read, 1 rejected")],
            make: HostileCase.auditing(
                "subscriptions.jsonl", bytes: playResponses(["tok-1", "tok-2"], breaking: "tok-2"))),
        .read(
            "a Google Play responses file whose first response is not UTF-8, the rest plain", "51.13",
            [.rejected("purchaseToken is not valid UTF-8"), .stdout("3 rows read, 1 rejected")],
            make: HostileCase.auditing(
                "subscriptions.jsonl", bytes: playResponses(["tok-1", "tok-2"], breaking: "tok-1"))),
        .refused(
            "a JSON file whose only value cannot be read", "51.14",
            .line(
                "broken.jsonl: error: a JSON file whose first value cannot be read (line 1: purchaseToken is not valid UTF-8 (at column 25)): no reader takes it; "
                    + "canonical customers need customer_id and platform; transactions need transaction_id, customer_id, "
                    + "product_id, product_type and purchase_date (docs/Inputs.md lists every format read)"),
            make: HostileCase.auditing("broken.jsonl", bytes: playResponses(["tok-1"], breaking: "tok-1"))),
        .read(
            "an App Store sales report whose title holds an escape sequence", "51.16",
            [.rejected("Title contains a control character (U+001B)"), .stdout("3 rows read, 1 rejected")],
            make: HostileCase.auditing(
                "S_D_85012345_20240201.txt", appleSalesReport([("Maps\u{1B}[2J", "1"), ("Maps", "2")]))),
        .read(
            "a canonical JSON customer whose `customer_id` is `true`", "51.16",
            [.rejected("customer_id holds true or false, not a value of its field"), .stdout("1 customer (")],
            make: HostileCase.auditing("customers.jsonl", #"{"customer_id": true, "platform": "ios"}"# + "\n")),
        .read(
            "two RevenueCat subscriber responses of one id, the one fetched earlier (no version) given first",
            "51.3",
            [.file("out/latest/customers.csv", contains: "rc-1,grandfathered,"), .stdout("3 rows read, 0 rejected")],
            make: HostileCase.auditing(
                "subscribers.jsonl",
                #"{"request_date":"2024-05-01T00:00:00Z","subscriber":{"original_app_user_id":"rc-1","#
                    + #""original_application_version":null}}"# + "\n"
                    + #"{"request_date":"2024-05-31T00:00:00Z","subscriber":{"original_app_user_id":"rc-1","#
                    + #""original_application_version":"100"}}"# + "\n")),
        .read(
            "a RevenueCat export row that shares its `store_transaction_id` with another customer's row of another product and term",
            "51.15", [.file("out/latest/customers.csv", contains: "rc-a,lapsed,")]
        ) { cli in
            try cli.write(
                "products.json",
                """
                {"cutover": {"date": "2024-03-01T00:00:00Z", "versions": {"default": "245"}},
                 "grandfathered_entitlements": ["premium"], "max_rejected_fraction": 1,
                 "products": {"pass.old": {"type": "non_renewing", "entitlements": ["premium"]}}}
                """)
            try cli.write("transactions_2024-06-01.csv", sharedTransactionExport)
            return .arguments(
                [
                    "audit", "--policy", "products.json", "--as-of", "2024-06-01T00:00:00Z", "--out", "out",
                    "transactions_2024-06-01.csv",
                ])
        },
    ]

    /// UTF-16 code units as little-endian bytes.
    static func littleEndian(_ units: [UInt16]) -> [UInt8] {
        units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// A policy naming the paid app, and an audit under it.
    static let paidAppPolicy = """
        {"cutover": {"date": "2024-03-01T00:00:00Z", "versions": {"default": "245"}},
         "grandfathered_entitlements": ["premium"], "max_rejected_fraction": 1,
         "sales": {"paid_app": ["com.example.maps"]}}
        """
    static let paidAppAudit = ["audit", "--policy", "paid.json", "--as-of", "2024-06-01T00:00:00Z", "--out", "out"]

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
