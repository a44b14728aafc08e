import Foundation
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// The bundled `sample-data/` set gives the results its README derives by hand from SPEC.
///
/// The expectations below mirror the table in `sample-data/README.md`; they were written from
/// SPEC §4, §5 and §8, not copied from the tool's output. The data is dated so that every
/// answer holds for any as-of from 2026-10-20T03:00:00Z up to 2099-01-01T00:00:00Z, which is
/// what lets the README's command run without `--as-of`.
struct SampleDataTests {
    /// Every as-of a test runs at: the day the sample was made, and one far later.
    static let asOfs = ["2026-11-21T00:00:00Z", "2080-01-01T00:00:00Z"]

    @Test(arguments: asOfs)
    func everyCustomerMatchesTheReadme(asOf: String) throws {
        let audit = try runSample(asOf: asOf)
        #expect(audit.customers.map(\.customer.id) == expectedCustomers.map(\.id))
        for expected in expectedCustomers {
            guard let result = audit.customers.first(where: { $0.customer.id == expected.id }) else {
                Issue.record("\(expected.id) is missing from the audit")
                continue
            }
            #expect(result.customerClass == expected.customerClass, "class of \(expected.id)")
            #expect(result.flags.map(\.code).sorted() == expected.flags.sorted(), "flags of \(expected.id)")
            #expect(entitlementPairs(result) == expected.entitlements.sorted(), "entitlements of \(expected.id)")
        }
    }

    @Test(arguments: asOfs)
    func everyClassAndFlagIsShown(asOf: String) throws {
        let audit = try runSample(asOf: asOf)
        for customerClass in CustomerClass.allCases {
            #expect(audit.customers.contains { $0.customerClass == customerClass }, "no \(customerClass) customer")
        }
        // Canonical files cannot leave a transaction unlinked: that flag is App Store-only
        // (shown by AppStoreLinkerTests and AppStorePipelineTests); nor can one source
        // disagree with another (CustomerAssemblyTests), nor a subscription service grant
        // otherwise than the policy (ReconciliationTests), nor claim a Google Play order without
        // the store's reports or hold a licensing verdict (ClaimedOrderTests, LicensingVerdictTests,
        // and the sales sample's golden).
        let elsewhere: Set<Flag> = [
            .unlinkedTransactions, .conflictingCustomerFacts, .grandfatheredNotGranted, .grantedNotEntitled,
            .orderNotFound, .orderRefunded, .orderClaimedTwice, .licensedOnlyAfterCutover,
        ]
        for flag in Flag.allCases where !elsewhere.contains(flag) {
            #expect(audit.customers.contains { $0.flags.contains(flag) }, "no customer flagged \(flag.code)")
        }
        #expect(
            audit.classCounts.map { "\($0.0.rawValue) \($0.1)" } == [
                "grandfathered 9", "subscriber 10", "lapsed 6", "new 10", "excluded 2",
            ])
    }

    @Test
    func everyFileIsAccountedFor() throws {
        let audit = try runSample(asOf: Self.asOfs[0])
        let accounting = audit.inputs.map {
            SampleAccounting(
                file: fileName($0.path), read: $0.rowsRead, accepted: $0.rowsAccepted, rejected: $0.rowsRejected)
        }
        #expect(
            accounting == [
                SampleAccounting(file: "customers-late.json", read: 6, accepted: 5, rejected: 1),
                SampleAccounting(file: "customers.csv", read: 32, accepted: 31, rejected: 1),
                SampleAccounting(file: "transactions-2024.jsonl", read: 5, accepted: 5, rejected: 0),
                SampleAccounting(file: "transactions.csv", read: 29, accepted: 28, rejected: 1),
            ])
        for input in audit.inputs {
            #expect(input.rowsRead == input.rowsAccepted + input.rowsRejected, "accounting of \(input.path)")
        }
        #expect(audit.inputs.map(\.sandboxRows) == [1, 1, 1, 3])
        #expect(audit.inputs.reduce(0) { $0 + $1.exactDuplicates } == 1)
        #expect(audit.rowsRead == 72)
        #expect(audit.rowsRejected == 3)
        #expect(!audit.exceedsRejectionThreshold)
    }

    @Test
    func rejectedRowsAreTheThreeDeliberateOnes() throws {
        let audit = try runSample(asOf: Self.asOfs[0])
        let rejected = audit.rejections.map { "\(fileName($0.file)):\($0.line) \($0.field ?? "-")" }
        #expect(
            rejected == [
                "customers-late.json:39 platform",
                "customers.csv:33 customer_id",
                "transactions.csv:19 purchase_date",
            ])
    }

    @Test
    func inputOrderDoesNotMatter() throws {
        let forward = try runSample(asOf: Self.asOfs[0])
        let backward = try runSample(asOf: Self.asOfs[0], reversed: true)
        #expect(summaries(forward) == summaries(backward))
    }

    // MARK: - Running the sample

    private func runSample(asOf text: String, reversed: Bool = false) throws -> Audit {
        let root = packageRoot()
        let policy = try PolicyLoader.load(path: root.appendingPathComponent("sample-data/policy.json").path)
        let asOf = try TimestampParser(defaultZone: nil).parse(text).get()
        var inputs = sampleInputs.map { root.appendingPathComponent("sample-data/\($0)").path }
        if reversed { inputs.reverse() }
        return try Pipeline.audit(AuditSettings(policy: policy, asOf: asOf), inputs: inputs)
    }

    /// Tests/GrandfatherCoreTests/SampleDataTests.swift → the package root, three levels up.
    private func packageRoot() -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    private func fileName(_ path: String) -> String {
        URL(fileURLWithPath: path).lastPathComponent
    }

    private func entitlementPairs(_ result: CustomerResult) -> [String] {
        result.entitlements.map { "\($0.entitlement):\($0.source.rawValue)" }.sorted()
    }

    private func summaries(_ audit: Audit) -> [String] {
        audit.customers.map {
            let flags = $0.flags.map(\.code).joined(separator: ";")
            return "\($0.customer.id) \($0.customerClass.rawValue) [\(flags)] \(entitlementPairs($0))"
        }
    }
}

/// Rows read, accepted and rejected for one input file.
private struct SampleAccounting: Equatable, CustomStringConvertible {
    var file: String
    var read: Int
    var accepted: Int
    var rejected: Int

    var description: String { "\(file): \(read) read, \(accepted) accepted, \(rejected) rejected" }
}

/// One row of the README's table: what a sample customer must come out as.
private struct ExpectedCustomer: Sendable {
    var id: String
    var customerClass: CustomerClass
    var flags: [String]
    /// `entitlement:source` pairs.
    var entitlements: [String]

    init(_ id: String, _ customerClass: CustomerClass, flags: [String] = [], entitlements: [String] = []) {
        self.id = id
        self.customerClass = customerClass
        self.flags = flags
        self.entitlements = entitlements
    }
}

/// The sample inputs, in a fixed sorted order (the results do not depend on it).
private let sampleInputs = ["customers-late.json", "customers.csv", "transactions-2024.jsonl", "transactions.csv"]

/// Every customer of the sample, sorted by id in code-point order (SPEC §8.25).
///
/// Absent on purpose: `c38-max-windows` (its only row is rejected and it has no transactions)
/// and `qa-device-7` (its only transaction is `xcode`, which creates no orphan, SPEC §8.8).
private let expectedCustomers: [ExpectedCustomer] = [
    ExpectedCustomer(
        "c01-ana-grandfathered-ios", .grandfathered,
        entitlements: ["offline_maps:purchase", "premium:grandfathered"]),
    ExpectedCustomer(
        "c02-ben-grandfathered-macos", .grandfathered, flags: ["consumable_only"],
        entitlements: ["premium:grandfathered"]),
    ExpectedCustomer("c03-chen-ipados-build-equals-cutover", .new),
    ExpectedCustomer(
        "c04-dev-naive-trap-build-99", .grandfathered, flags: ["naive_version_trap"],
        entitlements: ["premium:grandfathered"]),
    ExpectedCustomer("c05-eli-naive-trap-macos-10", .new, flags: ["naive_version_trap"]),
    ExpectedCustomer(
        "c06-fay-tvos-1.9-below-1.10", .grandfathered, flags: ["naive_version_trap"],
        entitlements: ["offline_maps:purchase", "premium:grandfathered"]),
    ExpectedCustomer("c07-gus-missing-version", .new, flags: ["missing_original_version"]),
    ExpectedCustomer("c08-hana-unparseable-version", .new, flags: ["unparseable_version"]),
    ExpectedCustomer(
        "c09-ivan-watchos-no-cutover", .subscriber, flags: ["no_cutover_for_platform"],
        entitlements: ["premium:purchase"]),
    ExpectedCustomer(
        "c10-kai-bought-just-before-cutover", .grandfathered, flags: ["bought_just_before_cutover"],
        entitlements: ["premium:grandfathered"]),
    ExpectedCustomer(
        "c11-lea-bought-at-cutover-instant", .subscriber, flags: ["bought_just_after_cutover"],
        entitlements: ["premium:purchase"]),
    ExpectedCustomer(
        "c12-mia-grandfathered-date-after", .grandfathered, flags: ["version_date_disagree"],
        entitlements: ["premium:grandfathered"]),
    ExpectedCustomer("c13-nate-date-before-build-after", .lapsed, flags: ["version_date_disagree"]),
    ExpectedCustomer(
        "c14-olga-preordered", .grandfathered, flags: ["preordered"], entitlements: ["premium:grandfathered"]),
    ExpectedCustomer(
        "c15-paul-grandfathered-and-subscribed", .grandfathered, flags: ["grandfathered_and_subscribed"],
        entitlements: ["premium:grandfathered", "premium:purchase"]),
    ExpectedCustomer("c16-quinn-monthly-subscriber", .subscriber, entitlements: ["premium:purchase"]),
    ExpectedCustomer("c17-rosa-lapsed-monthly", .lapsed),
    ExpectedCustomer("c18-sam-billing-retry", .lapsed, flags: ["billing_retry"]),
    ExpectedCustomer(
        "c19-tara-grace-period", .subscriber, flags: ["in_grace_period"], entitlements: ["premium:grace_period"]),
    ExpectedCustomer(
        "c20-uma-family-shared-only", .subscriber, flags: ["family_shared_only"],
        entitlements: ["premium:family_shared"]),
    ExpectedCustomer("c21-vic-refunded-lifetime", .lapsed, flags: ["refunded"]),
    ExpectedCustomer("c22-wes-consumables-only", .new, flags: ["consumable_only"]),
    ExpectedCustomer(
        "c23-xena-orphan", .subscriber, flags: ["missing_original_version", "orphan_transactions"],
        entitlements: ["premium:purchase"]),
    ExpectedCustomer("c24-yuri-sandbox-tester", .excluded, flags: ["sandbox"]),
    ExpectedCustomer(
        "c25-zoe-conflicting-duplicate", .grandfathered, flags: ["conflicting_duplicate", "refunded"],
        entitlements: ["offline_maps:purchase", "premium:grandfathered"]),
    ExpectedCustomer("c26-abe-expires-before-purchase", .lapsed, flags: ["impossible_dates"]),
    ExpectedCustomer("c27-bea-first-purchase-in-2099", .new, flags: ["impossible_dates"]),
    ExpectedCustomer("c28-cal-product-not-in-policy", .subscriber, entitlements: ["premium:purchase"]),
    ExpectedCustomer("c29-dora-passes-ended", .lapsed),
    ExpectedCustomer("c30-eve-offline-maps-only", .subscriber, entitlements: ["offline_maps:purchase"]),
    ExpectedCustomer("c31-finn-supporter-badge", .subscriber),
    ExpectedCustomer("c32-gia-sandbox-purchases-only", .new),
    ExpectedCustomer("c33-hugo-new-free-user", .new),
    ExpectedCustomer("c34-iris-new-subscriber", .subscriber, entitlements: ["premium:purchase"]),
    ExpectedCustomer("c35-jay-visionos-no-cutover", .new, flags: ["no_cutover_for_platform"]),
    ExpectedCustomer("c36-kim-macos-new", .new),
    ExpectedCustomer("c37-leo-xcode-build", .excluded, flags: ["sandbox"]),
]
