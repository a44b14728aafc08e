import Foundation

/// The repository's `sample-data/` (part of every clone), for tests that run the README's
/// example.
enum SampleData {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("sample-data")

    static let inputs = ["customers.csv", "customers-late.json", "transactions.csv", "transactions-2024.jsonl"]

    /// The App Store's Summary Sales Reports of the sample's app, in `apple-sales/`.
    static let salesReports = [
        "S_D_85012345_20250303.txt", "S_D_85012345_20250304.txt", "S_D_85012345_20250305.txt",
        "S_M_85012345_202412.txt", "S_M_85012345_202501.txt.gz", "S_M_85012345_202502.txt",
    ]

    /// The as-of the sample's README derives its table at.
    static let asOf = "2026-11-21T00:00:00Z"

    /// Copies the inputs and the policy into the CLI's folder; returns `audit` arguments.
    static func install(in cli: CLI) throws -> [String] {
        for name in inputs + ["policy.json"] { try cli.copy(folder.appendingPathComponent(name)) }
        return ["audit", "--policy", "policy.json", "--as-of", asOf, "--out", "out"] + inputs
    }

    /// Copies the sample's customers, transactions and policy with the stores' sales reports
    /// and Google Play's files of the same app (16 inputs, in `scripts/sample-sales`'s order:
    /// the earnings report's orders are in the sales report); returns `audit` arguments, as
    /// `scripts/sample-sales` audits them.
    static func installSales(in cli: CLI) throws -> [String] {
        var reports: [String] = []
        for (subfolder, prefix) in [
            ("apple-sales", "S_"), ("google-play", "salesreport_"), ("google-play", "earnings_"),
            ("google-play", "claimed-orders"), ("google-play", "licensing-verdicts"),
            ("google-play", "subscriptionsv2"), ("google-play", "rtdn-log"), ("google-play", "voidedpurchases"),
        ] {
            let names = try FileManager.default.contentsOfDirectory(
                atPath: folder.appendingPathComponent(subfolder).path
            )
            .filter { $0.hasPrefix(prefix) }.sorted()
            for name in names { try cli.copy(folder.appendingPathComponent("\(subfolder)/\(name)")) }
            reports += names
        }
        for name in ["policy.json", "customers.csv", "transactions.csv"] {
            try cli.copy(folder.appendingPathComponent(name))
        }
        return [
            "audit", "--policy", "policy.json", "--as-of", "2026-11-01T00:00:00Z", "--out", "out", "customers.csv",
            "transactions.csv",
        ] + reports
    }
}
