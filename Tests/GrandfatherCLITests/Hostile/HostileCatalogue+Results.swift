import Foundation

/// Issue 33, items 3, 10 and part of 12: `audit --results` on a folder whose manifest or
/// engine.json was edited by hand. The folder is `normalize`'s, with the three result tables
/// taken from the audit's own snapshot (so that the answers agree), then edited by `edit`.
extension HostileCatalogue {
    static let asOf = "2024-06-01T00:00:00Z"

    /// A script that makes the results folder `n`, runs `edit` (shell) on it, and audits it.
    static func results(edit: String) -> HostileCase.Maker {
        { _ in
            .script(
                """
                set -e
                "$GRANDFATHER" normalize --policy policy.json --as-of \(asOf) --out n good.csv >/dev/null
                "$GRANDFATHER" audit --policy policy.json --as-of \(asOf) --out a good.csv >/dev/null
                db=a/latest/snapshot.sqlite
                table() { echo "$2" > "n/$1"; sqlite3 -csv $db "SELECT $2 FROM $3" >> "n/$1"; }
                table gf_customers.csv customer_id,platform,original_app_version,original_purchase_date,environment,class customers
                table gf_customer_flags.csv customer_id,flag customer_flags
                table gf_entitlements.csv customer_id,entitlement,source,transaction_id,expires_date entitlements
                \(edit)
                set +e
                exec "$GRANDFATHER" audit --results n --policy policy.json --as-of \(asOf) --out out
                """)
        }
    }

    /// A Python line that rewrites the first input of `n/manifest.json`.
    static func manifestInput(_ assignments: String) -> String {
        "python3 -c 'import json; p=\"n/manifest.json\"; m=json.load(open(p)); i=m[\"inputs\"][0]; \(assignments); "
            + "json.dump(m, open(p, \"w\"))'"
    }

    static let resultsFolders: [HostileCase] = [
        .refused(
            "`audit --results` of a manifest whose `rows_read` and `rows_accepted` are 2^63 − 1", "33.3",
            .line(
                "n/manifest.json: error: the rows read add up to more than a count can hold"
            ),
            make: results(
                edit: manifestInput(
                    "i[\"rows_read\"]=9223372036854775807; i[\"rows_accepted\"]=9223372036854775807; "
                        + "m[\"inputs\"].append(dict(i))"))),
        .refused(
            "`audit --results` of a manifest that says 0 rejected rows where `rejected.csv` lists 3", "33.10",
            .line("n/manifest.json: error: it says 0 rejected rows of 'good.csv'; rejected.csv lists 3"),
            make: results(edit: #"for line in 7 8 9; do echo "good.csv,$line,,,forged" >> n/rejected.csv; done"#)),
        .refused(
            "`audit --results` of a manifest whose rows read are not its accepted plus rejected rows", "33.10",
            .line("n/manifest.json: error: 'good.csv': 5 rows read are not 1 accepted + 0 rejected"),
            make: results(edit: manifestInput("i[\"rows_read\"]=5"))),
        .refused(
            "`audit --results` of a folder whose `engine.json` is 100 KB", "33.12",
            .line("n/engine.json: error: over 64 KiB"),
            make: results(
                edit: #"python3 -c 'import json; json.dump({"engine": "duckdb", "version": "x" * 100000}, "#
                    + #"open("n/engine.json", "w"))'"#)),
    ]
}
