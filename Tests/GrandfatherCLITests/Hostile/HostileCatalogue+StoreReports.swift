import Foundation

/// Issue 37: what the stores' report files bring that no earlier reader met. Google delivers
/// its reports zipped, so a zip archive is read like a gzip file: one bomb rule, and an
/// archive that would make the tool choose among its files refused. Google Play's
/// subscription files link tokens into chains, and wrap notifications in base64.
extension HostileCatalogue {
    static let storeReports: [HostileCase] = [
        .refused(
            "a zip archive of one member that inflates 100 MiB of zeros (about 1,000 to 1)", "37",
            .line(
                "bomb.zip: error: zip archive inflates to more than 100 times its size; refused as a decompression bomb"
            )
        ) { _ in
            .script(
                "python3 -c 'import zipfile; z = zipfile.ZipFile(\"bomb.zip\", \"w\", zipfile.ZIP_DEFLATED); "
                    + "z.writestr(\"salesreport_202402.csv\", bytes(100 << 20)); z.close()' && "
                    + "exec \"$GRANDFATHER\" \(HostileCase.auditArguments.joined(separator: " ")) good.csv bomb.zip")
        },
        .refused(
            "a zip archive of two reports", "37",
            .line("two.zip: error: zip archive holds 2 files: give each report as a file of its own")
        ) { _ in
            .script(
                "python3 -c 'import zipfile; z = zipfile.ZipFile(\"two.zip\", \"w\"); "
                    + "z.writestr(\"a.csv\", \"customer_id,platform\\nc1,ios\\n\"); "
                    + "z.writestr(\"b.csv\", \"customer_id,platform\\nc2,ios\\n\"); z.close()' && "
                    + "exec \"$GRANDFATHER\" \(HostileCase.auditArguments.joined(separator: " ")) good.csv two.zip")
        },
        .read(
            "Google Play purchase tokens linked in a loop (`linkedPurchaseToken` a → b → a)", "37",
            [.stdout("2 customers ("), .explainsEveryCustomer],
            make: HostileCase.auditing(
                "loop.jsonl",
                [("a", "b"), ("b", "a")].map { token, linked in
                    #"{"purchaseToken":"\#(token)","linkedPurchaseToken":"\#(linked)","startTime":"2024-04-01T00:00:00Z","#
                        + #""subscriptionState":"SUBSCRIPTION_STATE_ACTIVE","#
                        + #""externalAccountIdentifiers":{"obfuscatedExternalAccountId":"p1"},"#
                        + #""lineItems":[{"productId":"pro.monthly","expiryTime":"2024-07-01T00:00:00Z"}]}"#
                }.joined(separator: "\n") + "\n")),
        .read(
            "a Google Play notification whose `data` is 10 MB of base64 that is not JSON", "37",
            [.rejected("message.data is not JSON")],
            make: HostileCase.auditing(
                "rtdn.jsonl",
                #"{"message":{"data":""# + String(repeating: "QUFB", count: 10 << 18) + #"","messageId":"1"}}"# + "\n")),
    ]
}
