import ArgumentParser
import Foundation
import GrandfatherCore
import GrandfatherEngine

/// `grandfather sql`: the audit as one SQL script for a warehouse (docs/Warehouse.md, "When one machine
/// is not enough").
struct SQLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sql",
        abstract: "Print the audit as SQL over tables in the warehouse layout (grandfather normalize).",
        discussion: """
            The script creates PREFIXcustomers, PREFIXcustomer_flags and PREFIXentitlements, which mean what \
            the snapshot's tables mean. The policy and the as-of instant are inlined. DuckDB and Spark are \
            verified by the tests; BigQuery and Snowflake are checked by parsing only.
            """
    )

    @OptionGroup var policyOption: PolicyOption

    @Option(name: .customLong("as-of"), help: "The instant to audit at (ISO-8601 or epoch ms). Default: now.")
    var asOf: String?

    @Option(name: .long, help: "duckdb, spark, bigquery or snowflake.")
    var dialect: WarehouseDialect

    @Option(name: .long, help: "The customers table.")
    var customers = WarehouseLayout.customers.name

    @Option(name: .long, help: "The transactions table.")
    var transactions = WarehouseLayout.transactions.name

    @Option(name: .customLong("product-entitlements"), help: "The table of entitlements rows name per product.")
    var productEntitlements = WarehouseLayout.productEntitlements.name

    @Option(name: .customLong("service-entitlements"), help: "The table of RevenueCat's active entitlements.")
    var serviceEntitlements = WarehouseLayout.serviceEntitlements.name

    @Option(name: .long, help: "Put before the name of every table the script creates.")
    var prefix = "gf_"

    @Option(name: .long, help: "A normalize folder to load the input tables from first (duckdb and spark).")
    var load: String?

    func run() throws {
        let policy = try PolicyLoader.load(path: policyOption.policy)
        var instant = InputOptions.now()
        if let asOf {
            switch TimestampParser(defaultZone: policy.defaultTimeZone).parse(asOf) {
            case .success(let value): instant = value
            case .failure(let problem): throw GrandfatherError.usage("--as-of: " + problem.reason(for: asOf))
            }
        }
        var options = ClassificationScript.Options(dialect: dialect)
        options.prefix = prefix
        options.customersTable = customers
        options.transactionsTable = transactions
        options.productEntitlementsTable = productEntitlements
        options.serviceEntitlementsTable = serviceEntitlements
        if let load { options.load = URL(fileURLWithPath: load).standardizedFileURL.path }
        print(try ClassificationScript.text(AuditSettings(policy: policy, asOf: instant), options), terminator: "")
    }
}

extension WarehouseDialect: ExpressibleByArgument {}
