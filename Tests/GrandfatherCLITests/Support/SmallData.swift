/// A tiny, valid data set for command-line tests: three customers, three transactions.
enum SmallData {
    static let policy = """
        {
          "name": "cli test",
          "cutover": { "date": "2024-03-01T00:00:00Z", "versions": { "ios": "245", "default": "2.0" } },
          "grandfathered_entitlements": ["premium"],
          "products": { "pro.monthly": { "entitlements": ["premium"] } },
          "max_rejected_fraction": 0.2
        }
        """

    static let customers = """
        customer_id,platform,original_app_version,original_purchase_date
        a-grandfathered,ios,200,2023-01-01T00:00:00Z
        b-subscriber,ios,300,2024-04-01T00:00:00Z
        c-lapsed,macos,2.1,2024-04-01T00:00:00Z

        """

    static let transactions = """
        transaction_id,customer_id,product_id,product_type,purchase_date,expires_date
        t1,b-subscriber,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z
        t2,c-lapsed,pro.monthly,auto_renewable,2024-04-01T00:00:00Z,2024-05-01T00:00:00Z
        t3,a-grandfathered,coins,consumable,2024-04-01T00:00:00Z,

        """

    static let asOf = "2024-06-01T00:00:00Z"

    /// Writes the set into a CLI test folder; returns the audit arguments for `--out out`.
    static func install(in cli: CLI, transactions: String = SmallData.transactions) throws -> [String] {
        try cli.write("policy.json", policy)
        try cli.write("customers.csv", customers)
        try cli.write("transactions.csv", transactions)
        return [
            "audit", "--policy", "policy.json", "--as-of", asOf, "--out", "out", "customers.csv", "transactions.csv",
        ]
    }
}
