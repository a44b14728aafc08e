import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// The linking rules of `AppStoreLinker`, one at a time, on records built by hand.
@Suite struct AppStoreLinkerTests {
    private func transaction(
        _ id: String, chain: String? = nil, app: String? = nil, token: String? = nil, customer: String? = nil,
        purchased: String = "2025-05-01T00:00:00Z", signed: Int64? = nil, price: String? = nil, line: Int = 1
    ) -> AppStoreRecord {
        var fields: [TransactionField: String] = [
            .transactionID: id, .productID: "pro.monthly", .productType: "auto_renewable", .purchaseDate: purchased,
        ]
        fields[.originalTransactionID] = chain
        fields[.customerID] = customer
        fields[.price] = price
        return .transaction(
            AppStoreTransaction(
                line: line, fields: fields, appTransactionID: app, appAccountToken: token,
                signedDate: signed.map { Instant(seconds: $0) }, trust: .verified))
    }

    private func customer(_ app: String, platform: Platform? = .ios, signed: Int64? = nil, line: Int = 1)
        -> AppStoreRecord
    {
        .customer(
            AppStoreCustomer(
                line: line, id: app, platform: platform, originalAppVersion: "100", environment: .production,
                appTransactionID: app, receiptOwnerTransactionID: nil, signedDate: signed.map { Instant(seconds: $0) },
                trust: .verified))
    }

    private func owners(_ rows: [AppStoreLinker.FileRows]) -> [String: String] {
        var owners: [String: String] = [:]
        for file in rows {
            for row in file.transactions { owners[row.fields[.transactionID] ?? "?"] = row.fields[.customerID] }
        }
        return owners
    }

    @Test func transactionsWithoutIdentityJoinTheirSubscriptionsOwnerAcrossFiles() {
        let linker = AppStoreLinker(policy: ApplePolicy())
        let (rows, unlinked) = linker.link([
            [transaction("t2", chain: "t1")],
            [transaction("t1", chain: "t1", app: "A"), transaction("u1", chain: "u1")],
        ])
        #expect(owners(rows) == ["t1": "A", "t2": "A", "u1": "unlinked:u1"])
        #expect(unlinked == ["unlinked:u1"])
    }

    @Test func theAccountTokenIdentityRenamesAppTransactionsThroughAPairingTransaction() {
        var policy = ApplePolicy()
        policy.customerIdentity = .appAccountToken
        let (rows, _) = AppStoreLinker(policy: policy).link([
            [customer("A"), customer("B"), transaction("t1", chain: "t1", app: "A", token: "user-1")]
        ])
        #expect(rows[0].customers.map(\.customer.id) == ["user-1", "B"])
        #expect(owners(rows) == ["t1": "user-1"])
    }

    @Test func theLaterSignedCopyOfATransactionSupersedesOlderOnes() {
        let (rows, _) = AppStoreLinker(policy: ApplePolicy()).link([
            [transaction("t1", app: "A", signed: 100, price: "1", line: 3)],
            [transaction("t1", app: "A", signed: 200, price: "2", line: 7)],
        ])
        #expect(rows[0].transactions.isEmpty && rows[0].superseded == 1 && rows[0].acceptedWithoutRecord == 1)
        #expect(rows[1].transactions.map { $0.fields[.price] } == ["2"])
    }

    @Test func copiesThatCannotBeOrderedAllGoOnForTheLedgerToJudge() {
        let (rows, _) = AppStoreLinker(policy: ApplePolicy()).link([
            [
                transaction("t1", app: "A", signed: 100, price: "1"),
                transaction("t1", app: "A", signed: 100, price: "2"),
            ]
        ])
        #expect(rows[0].transactions.count == 2 && rows[0].superseded == 0)
    }

    @Test func renewalStateLandsOnTheSubscriptionsLatestTransaction() {
        let renewal = AppStoreRecord.renewal(
            AppStoreRenewal(
                line: 9, originalTransactionID: "t1", renewalState: .inGracePeriod,
                gracePeriodExpiresDate: AppStoreRecordText.instant("2026-11-12T08:00:00Z"), signedDate: nil,
                trust: .verified))
        let (rows, _) = AppStoreLinker(policy: ApplePolicy()).link([
            [
                transaction("t1", chain: "t1", app: "A", purchased: "2025-05-01T00:00:00Z"),
                transaction("t2", chain: "t1", app: "A", purchased: "2025-06-01T00:00:00Z"), renewal,
            ]
        ])
        let states = Dictionary(
            uniqueKeysWithValues: rows[0].transactions.map {
                ($0.fields[.transactionID] ?? "?", $0.fields[.renewalState])
            })
        #expect(states == ["t1": nil, "t2": "in_grace_period"])
        #expect(rows[0].acceptedWithoutRecord == 1 && rows[0].rejections.isEmpty)
    }

    @Test func renewalInfoWithoutItsSubscriptionIsRejectedWithTheReason() {
        let renewal = AppStoreRecord.renewal(
            AppStoreRenewal(
                line: 4, originalTransactionID: "x9", renewalState: .subscribed, gracePeriodExpiresDate: nil,
                signedDate: nil, trust: .verified))
        let (rows, _) = AppStoreLinker(policy: ApplePolicy()).link([[renewal]])
        #expect(rows[0].rejections.map(\.line) == [4])
        #expect(rows[0].rejections.first?.reason.contains("matches no transaction") == true)
    }

    @Test func anAppTransactionWithoutPlatformTakesThePolicyDefaultOrIsRejected() {
        let records: [[AppStoreRecord]] = [[customer("A", platform: nil, line: 2)]]
        let refused = AppStoreLinker(policy: ApplePolicy()).link(records).rows[0]
        #expect(refused.customers.isEmpty)
        #expect(refused.rejections.first?.reason.contains("apple.default_platform") == true)
        var policy = ApplePolicy()
        policy.defaultPlatform = .macos
        let defaulted = AppStoreLinker(policy: policy).link(records).rows[0]
        #expect(defaulted.customers.map(\.customer.platform) == [.macos])
    }

    @Test func ownershipOfASubscriptionDoesNotDependOnFileOrder() {
        let a = [transaction("t1", chain: "t1", app: "A", signed: 5)]
        let b = [transaction("t2", chain: "t1", app: "B", signed: 9)]
        let c = [transaction("t3", chain: "t1")]
        let one = owners(AppStoreLinker(policy: ApplePolicy()).link([a, b, c]).rows)
        let other = owners(AppStoreLinker(policy: ApplePolicy()).link([c, b, a]).rows)
        #expect(one == other && one["t3"] == "B")
    }
}
