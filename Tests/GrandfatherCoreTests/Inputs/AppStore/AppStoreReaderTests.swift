import Foundation
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// App Store files (FORMATS.md §1–5): recognized from their first bytes, read into records
/// with exact row accounting, each field mapped onto SPEC §2's canonical text.
struct AppStoreReaderTests {
    typealias Shape = AppStoreShape

    /// A record-bearing fixture and what it reads to.
    struct RecordFile: Sendable, CustomTestStringConvertible {
        var path: String
        var shape: Shape
        var tally: Tally
        var testDescription: String { path }

        init(_ path: String, _ shape: Shape, _ tally: Tally) {
            self.path = path
            self.shape = shape
            self.tally = tally
        }
    }

    /// A fixture that holds no records and (the start of) its one-line description.
    struct NotRecordFile: Sendable, CustomTestStringConvertible {
        var path: String
        var description: String
        var testDescription: String { path }

        init(_ path: String, _ description: String) {
            self.path = path
            self.description = description
        }
    }

    /// Every record-bearing fixture, read with `--trust-decoded` and an unchecking checker.
    static let recordFiles: [RecordFile] = [
        .init("server-library/models/appData.json", .appTransactionInfoResponse, Tally(rejected: 1)),
        .init("server-library/models/appTransaction.json", .decodedAppTransactions, Tally(customers: 1)),
        .init("server-library/models/appTransactionInfoResponse.json", .appTransactionInfoResponse, Tally(rejected: 1)),
        .init(
            "server-library/models/getAllSubscriptionStatusesResponse.json", .subscriptionStatuses, Tally(rejected: 6)),
        .init("server-library/models/getNotificationHistoryResponse.json", .notificationHistory, Tally(rejected: 2)),
        .init("server-library/models/getRefundHistoryResponse.json", .signedTransactionList, Tally(rejected: 2)),
        .init("server-library/models/lookupOrderIdResponse.json", .signedTransactionList, Tally(rejected: 2)),
        .init(
            "server-library/models/signedConsumptionRequestNotification.json", .decodedNotifications, Tally(rejected: 2)
        ),
        .init(
            "server-library/models/signedExternalPurchaseTokenNotification.json", .decodedNotifications, Tally(noted: 1)
        ),
        .init(
            "server-library/models/signedExternalPurchaseTokenSandboxNotification.json", .decodedNotifications,
            Tally(noted: 1)
        ),
        .init("server-library/models/signedNotification.json", .decodedNotifications, Tally(rejected: 2)),
        .init("server-library/models/signedRenewalInfo.json", .decodedRenewalInfo, Tally(renewals: 1)),
        .init("server-library/models/signedRescindConsentNotification.json", .decodedNotifications, Tally(rejected: 1)),
        .init("server-library/models/signedSummaryNotification.json", .decodedNotifications, Tally(noted: 1)),
        .init("server-library/models/signedTransaction.json", .decodedTransactions, Tally(transactions: 1)),
        .init(
            "server-library/models/signedTransactionWithRevocation.json", .decodedTransactions, Tally(transactions: 1)),
        .init("server-library/models/transactionHistoryResponse.json", .signedTransactionList, Tally(rejected: 2)),
        .init(
            "server-library/models/transactionHistoryResponseWithMalformedAppAppleId.json", .signedTransactionList,
            Tally(rejected: 2)
        ),
        .init(
            "server-library/models/transactionHistoryResponseWithMalformedEnvironment.json", .signedTransactionList,
            Tally(rejected: 2)
        ),
        .init("server-library/models/transactionInfoResponse.json", .transactionInfoResponse, Tally(rejected: 1)),
        .init("server-library/mock_signed_data/missingX5CHeaderClaim", .jwsLines, Tally(noted: 1)),
        .init("server-library/mock_signed_data/renewalInfo", .jwsLines, Tally(rejected: 1)),
        .init("server-library/mock_signed_data/testNotification", .jwsLines, Tally(noted: 1)),
        .init("server-library/mock_signed_data/transactionInfo", .jwsLines, Tally(rejected: 1)),
        .init("server-library/mock_signed_data/wrongBundleId", .jwsLines, Tally(noted: 1)),
        // Its originalPurchaseDate is Xcode's year-0 placeholder, outside 0001-9999: refused.
        .init("server-library/xcode/xcode-signed-app-transaction", .jwsLines, Tally(rejected: 1)),
        .init("server-library/xcode/xcode-signed-renewal-info", .jwsLines, Tally(renewals: 1)),
        .init("server-library/xcode/xcode-signed-transaction", .jwsLines, Tally(transactions: 1)),
        .init("real-signed/test-notification-signed-payload.json", .notificationBodies, Tally(noted: 1)),
        .init("receipts/inAppPurchaseInvalidReceiptResponse.json", .receipts, Tally(rejected: 1)),
        .init("receipts/verify_receipt_response.json", .receipts, Tally(transactions: 43, customers: 1, renewals: 1)),
        .init("receipts/v1-server-notification.json", .v1Notifications, Tally(transactions: 54, renewals: 1)),
    ]

    static let errorBody = "an App Store Server API error body (errorCode "
    static let certificate = "a DER X.509 certificate, not records"
    static let appReceipt =
        "a base64 PKCS#7 app receipt, not records: send it to the App Store Server API or use its transactions"

    /// Every fixture that holds no records, with (the start of) its one-line description.
    static let notRecordFiles: [NotRecordFile] = [
        .init("server-library/models/appTransactionDoesNotExistError.json", errorBody + "4040019"),
        .init("server-library/models/familyTransactionNotSupportedError.json", errorBody + "4000185"),
        .init("server-library/models/invalidTransactionIdError.json", errorBody + "4000006"),
        .init("server-library/models/transactionIdNotFoundError.json", errorBody + "4040010"),
        .init("server-library/models/transactionIdNotOriginalTransactionId.json", errorBody + "4000187"),
        .init(
            "server-library/models/extendSubscriptionRenewalDateResponse.json",
            "an Extend Subscription Renewal Date response, not records"
        ),
        .init("server-library/certs/testCA.der", certificate),
        .init("server-library/certs/test_intermediate.der", certificate),
        .init("server-library/certs/test_intermediate_INVALID_OID.der", certificate),
        .init("server-library/certs/test_leaf.der", certificate),
        .init("server-library/certs/test_leaf_INVALID_OID.der", certificate),
        .init("server-library/certs/test_leaf_for_invalid_intermediate.der", certificate),
        .init("server-library/certs/test_root.der", certificate),
        .init(
            "server-library/mock_signed_data/legacyTransaction",
            "a legacy iOS 6 transaction receipt (base64 \"purchase-info\" plist), not records"
        ),
        .init("server-library/xcode/xcode-app-receipt-empty", appReceipt),
        .init("server-library/xcode/xcode-app-receipt-with-transaction", appReceipt),
    ]

    // MARK: - Every fixture

    @Test("every fixture file is in one of the two tables")
    func everyFixtureCovered() throws {
        let covered = Set(Self.recordFiles.map(\.path) + Self.notRecordFiles.map(\.path))
        let files = Set(try AppStoreFiles.allPaths()).subtracting(["FIXTURES.md"])
        #expect(files.subtracting(covered).sorted() == [])
        #expect(covered.subtracting(files).sorted() == [])
    }

    @Test("each record-bearing fixture is recognized and read with exact row counts", arguments: recordFiles)
    func recordFixture(_ file: RecordFile) throws {
        let bytes = try AppStoreFiles.bytes(file.path)
        #expect(AppStoreFiles.recognize(bytes) == .appStore(file.shape))
        let contents = AppStoreFileReader.read(
            bytes, shape: file.shape, options: AppStoreReadOptions(trustDecoded: true), checker: StubChecker.unchecked)
        #expect(contents.tally == file.tally)
    }

    @Test("each fixture that holds no records is described in one line", arguments: notRecordFiles)
    func notRecordFixture(_ file: NotRecordFile) throws {
        let recognition = AppStoreFiles.recognize(try AppStoreFiles.bytes(file.path))
        guard case .notRecords(let found) = recognition else {
            Issue.record("\(file.path): \(String(describing: recognition))")
            return
        }
        #expect(found.hasPrefix(file.description))
        #expect(!found.contains("\n"))
    }

    @Test("error bodies quote their code and message")
    func errorBodyDescription() throws {
        let bytes = try AppStoreFiles.bytes("server-library/models/transactionIdNotFoundError.json")
        #expect(
            AppStoreFiles.recognize(bytes)
                == .notRecords(
                    "an App Store Server API error body (errorCode 4040010 \"Transaction id not found.\"), not records")
        )
    }

    @Test("placeholder strings where a JWS belongs are rejected rows, one per element, at its line")
    func placeholdersAreNotJWS() throws {
        let contents = try AppStoreFiles.readFixture("server-library/models/transactionHistoryResponse.json")
        #expect(
            contents.records == [
                .rejected(line: 8, reason: "not a compact JWS: 1 dot-separated segments, not 3"),
                .rejected(line: 9, reason: "not a compact JWS: 1 dot-separated segments, not 3"),
            ])
    }
}

// MARK: - Signed and decoded payloads

extension AppStoreReaderTests {
    static let exampleTransactionFields: [TransactionField: String] = [
        .transactionID: "23456", .originalTransactionID: "12345", .productID: "com.example.product",
        .productType: "auto_renewable", .purchaseDate: "2023-10-24T12:01:40Z", .expiresDate: "2023-10-24T12:03:20Z",
        .revocationDate: "2023-10-24T12:02:30Z", .ownershipType: "purchased", .environment: "sandbox",
        .price: "10.99", .currency: "USD",
    ]

    @Test(
        "a decoded transaction maps every field; customer_id is left to the linker",
        arguments: ["signedTransaction.json", "signedTransactionWithRevocation.json"])
    func decodedTransaction(name: String) throws {
        let contents = try AppStoreFiles.readFixture("server-library/models/" + name)
        let transaction = try #require(contents.transactions.first)
        #expect(transaction.fields == Self.exampleTransactionFields)
        #expect(transaction.appTransactionID == "71134")
        #expect(transaction.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(transaction.signedDate == Instant(microseconds: 1_698_148_900_000_000))
        #expect(transaction.trust == .unsigned)
        #expect(transaction.line == 1)
    }

    @Test("the same transaction signed maps alike, trusted as its check says")
    func signedTransaction() throws {
        let jws = try AppStoreFiles.jws(fixture: "server-library/models/signedTransaction.json")
        let contents = try AppStoreFiles.read(text: "\n" + jws + "\n")
        let transaction = try #require(contents.transactions.first)
        #expect(transaction.fields == Self.exampleTransactionFields)
        #expect(transaction.trust == .unchecked)
        #expect(transaction.line == 2)
        let accepted = try AppStoreFiles.read(text: jws, options: .acceptingSelfSigned, checker: .xcodeAware)
        #expect(accepted.transactions.first?.trust == .selfSigned)  // LocalTesting
        #expect(accepted.transactions.first?.fields[.environment] == "sandbox")
        let refused = try AppStoreFiles.read(text: jws, checker: .xcodeAware)
        #expect(
            refused.rejections == [
                "x5c holds 1 certificate, not 3; the payload says LocalTesting, whose data is self-signed: "
                    + #"read only with --accept-self-signed or apple.environment "LocalTesting""#
            ])
    }

    @Test("appTransaction.json: a customer named by its appTransactionId")
    func decodedAppTransaction() throws {
        let contents = try AppStoreFiles.readFixture("server-library/models/appTransaction.json")
        let customer = try #require(contents.customers.first)
        #expect(
            customer.fields == [
                .customerID: "71134", .platform: "ios", .originalAppVersion: "1.1.2",
                .originalPurchaseDate: "2023-10-24T12:00:00Z", .preorderDate: "2023-10-24T11:58:20Z",
                .environment: "sandbox",
            ])
        #expect(customer.appTransactionID == "71134")
        #expect(customer.receiptOwnerTransactionID == nil)
        #expect(customer.signedDate == Instant(microseconds: 1_698_148_900_000_000))
        #expect(customer.trust == .unsigned)
    }

    @Test("signedRenewalInfo.json alone: its grace-period end tells the state")
    func decodedRenewalInfo() throws {
        let contents = try AppStoreFiles.readFixture("server-library/models/signedRenewalInfo.json")
        #expect(
            contents.renewals == [
                AppStoreRenewal(
                    line: 1, originalTransactionID: "12345", renewalState: .inGracePeriod,
                    gracePeriodExpiresDate: AppStoreRecordText.instant("2023-10-24T12:01:40Z"),
                    signedDate: Instant(microseconds: 1_698_148_800_000_000), trust: .unsigned)
            ])
    }

    @Test(
        "renewal flags without a status",
        arguments: [
            (#"{"autoRenewStatus": 1, "originalTransactionId": "o"}"#, nil),
            (#"{"autoRenewStatus": 0, "originalTransactionId": "o", "expirationIntent": 1}"#, "expired"),
            (
                #"{"autoRenewStatus": 1, "originalTransactionId": "o", "isInBillingRetryPeriod": true}"#,
                "in_billing_retry"
            ),
        ] as [(String, String?)])
    func renewalFlags(payload: String, state: String?) throws {
        let contents = try AppStoreFiles.read(text: payload)
        #expect(contents.renewals.map { $0.renewalState?.rawValue } == [state])
    }

    @Test("getAllSubscriptionStatusesResponse: each entry's status sets its renewal's state")
    func subscriptionStatuses() throws {
        var text = try AppStoreFiles.text("server-library/models/getAllSubscriptionStatusesResponse.json")
        let entries = [("one", "3749183"), ("two", "5314314134"), ("three", "3413453")]
        for (name, subscription) in entries {
            let transaction = AppStoreFiles.jws(
                #"{"transactionId": "t-\#(name)", "originalTransactionId": "\#(subscription)", "#
                    + #""productId": "p", "purchaseDate": 1698100000000, "#
                    + #""type": "Auto-Renewable Subscription", "signedDate": 1698148800000}"#)
            // The third renewal info names no subscription: the entry's originalTransactionId does.
            let renewalPayload =
                name == "three"
                ? #"{"autoRenewStatus": 0, "gracePeriodExpiresDate": 1698148900000}"#
                : #"{"autoRenewStatus": 1, "originalTransactionId": "\#(subscription)"}"#
            text = text.replacingOccurrences(of: "\"signed_transaction_\(name)\"", with: "\"\(transaction)\"")
            text = text.replacingOccurrences(
                of: "\"signed_renewal_\(name)\"", with: "\"\(AppStoreFiles.jws(renewalPayload))\"")
        }
        let contents = try AppStoreFiles.read(text: text)
        #expect(contents.tally == Tally(transactions: 3, renewals: 3))
        #expect(contents.transactions.map(\.line) == [12, 18, 29])
        #expect(contents.transactions.map { $0.fields[.originalTransactionID] } == entries.map(\.1))
        #expect(contents.renewals.map(\.line) == [13, 19, 30])
        #expect(contents.renewals.map(\.originalTransactionID) == entries.map(\.1))
        #expect(contents.renewals.map(\.renewalState) == [.subscribed, .revoked, .expired])
        #expect(
            contents.renewals.map { $0.gracePeriodExpiresDate?.iso8601 } == [nil, nil, "2023-10-24T12:01:40Z"])
    }

    /// signedNotification.json with real JWS in place of its placeholders, as a V2 body.
    static func subscribedNotificationBody() throws -> String {
        var payload = try AppStoreFiles.text("server-library/models/signedNotification.json")
        payload = payload.replacingOccurrences(
            of: "\"signed_transaction_info_value\"",
            with: "\"\(try AppStoreFiles.jws(fixture: "server-library/models/signedTransaction.json"))\"")
        payload = payload.replacingOccurrences(
            of: "\"signed_renewal_info_value\"",
            with: "\"\(try AppStoreFiles.jws(fixture: "server-library/models/signedRenewalInfo.json"))\"")
        return #"{"signedPayload": "\#(AppStoreFiles.jws(payload))"}"#
    }

    @Test("a notification carrying a transaction and renewal info gives two rows at its line")
    func notificationRows() throws {
        let contents = try AppStoreFiles.read(text: "\n" + (try Self.subscribedNotificationBody()) + "\n")
        #expect(contents.tally == Tally(transactions: 1, renewals: 1))
        #expect(contents.records.map(\.line) == [2, 2])
        #expect(contents.transactions.first?.fields == Self.exampleTransactionFields)
        // data.status 1 decides, not the renewal info's own flags.
        #expect(contents.renewals.first?.renewalState == .subscribed)
        #expect(contents.renewals.first?.gracePeriodExpiresDate?.iso8601 == "2023-10-24T12:01:40Z")
        #expect(contents.notificationTypes == ["SUBSCRIBED/INITIAL_BUY": 1])
        #expect(contents.unknownNotificationTypes == [:])
        #expect(contents.transactions.first?.trust == .unchecked)
    }

    @Test("a self-signed notification's rows are self-signed and sandbox, when self-signed data is accepted")
    func selfSignedNotification() throws {
        let contents = try AppStoreFiles.read(
            text: try Self.subscribedNotificationBody(), options: .acceptingSelfSigned, checker: .xcodeAware)
        #expect(contents.transactions.first?.trust == .selfSigned)
        #expect(contents.transactions.first?.fields[.environment] == "sandbox")
        #expect(contents.renewals.first?.trust == .selfSigned)
    }

    @Test("a decoded notification's nested placeholders are rejected, naming the field")
    func decodedNotificationPlaceholders() throws {
        let contents = try AppStoreFiles.readFixture("server-library/models/signedNotification.json")
        #expect(
            contents.records == [
                .rejected(line: 1, reason: "signedTransactionInfo: not a compact JWS: 1 dot-separated segments, not 3"),
                .rejected(line: 1, reason: "signedRenewalInfo: not a compact JWS: 1 dot-separated segments, not 3"),
            ])
        #expect(contents.notificationTypes == ["SUBSCRIBED/INITIAL_BUY": 1])
    }

    @Test("notifications without a record are noted, counted by type")
    func notedNotifications() throws {
        let summary = try AppStoreFiles.readFixture("server-library/models/signedSummaryNotification.json")
        #expect(summary.notes == ["RENEWAL_EXTENSION notification carries a summary, no customer record"])
        #expect(summary.notificationTypes == ["RENEWAL_EXTENSION/SUMMARY": 1])
        let token = try AppStoreFiles.readFixture("server-library/models/signedExternalPurchaseTokenNotification.json")
        #expect(
            token.notes == [
                "EXTERNAL_PURCHASE_TOKEN notification carries an external purchase token, not an in-app purchase"
            ])
        let test = try AppStoreFiles.readFixture("real-signed/test-notification-signed-payload.json")
        #expect(test.records == [.noted(line: 2, note: "TEST notification carries no transaction")])
        #expect(test.notificationTypes == ["TEST": 1])
    }

    @Test("RESCIND_CONSENT carries an app transaction: a customer")
    func rescindConsent() throws {
        let appTransaction = try AppStoreFiles.jws(fixture: "server-library/models/appTransaction.json")
        let payload = try AppStoreFiles.text("server-library/models/signedRescindConsentNotification.json")
            .replacingOccurrences(of: "signed_app_transaction_info_value", with: appTransaction)
        let contents = try AppStoreFiles.read(text: #"{"signedPayload": "\#(AppStoreFiles.jws(payload))"}"#)
        #expect(contents.tally == Tally(customers: 1))
        #expect(contents.customers.first?.fields[.customerID] == "71134")
        #expect(contents.customers.first?.trust == .unchecked)
    }

    @Test("an unknown notification type is counted apart and its records still read")
    func unknownNotificationType() throws {
        let transaction = try AppStoreFiles.jws(fixture: "server-library/models/signedTransaction.json")
        let lines = [
            #"{"notificationType": "FUTURE_THING", "subtype": "NEW", "data": {"signedTransactionInfo": "\#(transaction)"}}"#,
            #"{"notificationType": "TEST", "data": {"bundleId": "com.example"}}"#,
            #"{"notificationType": "TEST"}"#,
        ]
        let contents = try AppStoreFiles.read(text: lines.joined(separator: "\n"))
        #expect(contents.tally == Tally(transactions: 1, noted: 2))
        #expect(contents.notificationTypes == ["FUTURE_THING/NEW": 1, "TEST": 2])
        #expect(contents.unknownNotificationTypes == ["FUTURE_THING/NEW": 1])
    }

    @Test("a JWS of another kind where a notification belongs is rejected")
    func wrongKindInSlot() throws {
        let transaction = try AppStoreFiles.jws(fixture: "server-library/models/signedTransaction.json")
        let contents = try AppStoreFiles.read(text: #"{"signedPayload": "\#(transaction)"}"#)
        #expect(contents.rejections == ["JWS payload is a transaction, not a notification"])
    }

    @Test("mock payloads of no known kind are rejected, naming their keys")
    func payloadOfNoKind() throws {
        let contents = try AppStoreFiles.readFixture("server-library/mock_signed_data/transactionInfo")
        #expect(
            contents.rejections == [
                "the JWS payload is not a transaction, renewal info, app transaction or notification "
                    + "(keys: environment, bundleId, signedDate)"
            ])
    }

    @Test("a mock payload of no known kind says that its signature verified against testCA.der")
    func payloadOfNoKindVerified() throws {
        let root = try AppStoreFiles.bytes("server-library/certs/testCA.der")
        let verifier = SignatureVerifier(additionalRoots: [root], validationTime: .signedDate)
        let bytes = try AppStoreFiles.bytes("server-library/mock_signed_data/transactionInfo")
        guard case .appStore(let shape) = AppStoreRecognizer.recognize(bytes) else {
            Issue.record("the mock is not recognised as App Store content")
            return
        }
        let contents = AppStoreFileReader.read(
            bytes, shape: shape, options: AppStoreReadOptions(), checker: verifier)
        guard case .rejected(_, let reason) = contents.records.first else {
            Issue.record("the mock payload was not rejected")
            return
        }
        #expect(reason.hasPrefix("its signature verifies, but the JWS payload is not a transaction"))
    }
}

// MARK: - Signature outcomes and policy checks

extension AppStoreReaderTests {
    @Test("a refused signature rejects the row with the checker's reason")
    func refusedSignature() throws {
        let refusing = StubChecker.refusing("bad signature")
        for path in [
            "server-library/mock_signed_data/testNotification", "real-signed/test-notification-signed-payload.json",
        ] {
            let contents = try AppStoreFiles.readFixture(path, checker: refusing)
            #expect(contents.rejections == ["bad signature"], "\(path)")
        }
        // A payload that says it is Xcode or LocalTesting data is told how such data is read.
        let xcode = try AppStoreFiles.readFixture("server-library/xcode/xcode-signed-transaction", checker: refusing)
        #expect(
            xcode.rejections == [
                #"bad signature; the payload says Xcode, whose data is self-signed: read only with --accept-self-signed or apple.environment "Xcode""#
            ])
        let notification = try AppStoreFiles.read(text: try Self.subscribedNotificationBody(), checker: refusing)
        #expect(
            notification.records == [
                .rejected(
                    line: 1,
                    reason:
                        #"bad signature; the payload says LocalTesting, whose data is self-signed: read only with --accept-self-signed or apple.environment "LocalTesting""#
                )
            ])
        #expect(notification.notificationTypes == ["SUBSCRIBED/INITIAL_BUY": 1])
    }

    @Test("the checker gets the payload's signing instant, and nothing else the payload says")
    func checkerInputs() throws {
        let appTransaction = try AppStoreFiles.readFixture(
            "server-library/xcode/xcode-signed-app-transaction", checker: .echoing)
        #expect(
            appTransaction.rejections == [
                "at 2023-10-19T01:48:42.257447Z; the payload says Xcode, whose data is self-signed: "
                    + #"read only with --accept-self-signed or apple.environment "Xcode""#
            ])
        let transaction = AppStoreFiles.jws(
            #"{"transactionId": "t", "signedDate": 1700000000000, "environment": "Sandbox"}"#)
        // An early notification without signedDate: its transaction's signedDate stands in.
        let early = AppStoreFiles.jws(
            #"{"notificationType": "DID_RENEW", "data": {"environment": "Production", "signedTransactionInfo": "\#(transaction)"}}"#
        )
        let notification = try AppStoreFiles.read(text: early, checker: .echoing)
        #expect(notification.rejections == ["at 2023-11-14T22:13:20Z"])
    }

    @Test("Xcode data, when accepted: self-signed, read as sandbox; its app transaction's year-0 placeholder refused")
    func xcodeData() throws {
        let transaction = try AppStoreFiles.readFixture(
            "server-library/xcode/xcode-signed-transaction", options: .acceptingSelfSigned, checker: .xcodeAware)
        let record = try #require(transaction.transactions.first)
        #expect(record.trust == .selfSigned)
        #expect(record.fields[.environment] == "sandbox")
        #expect(record.fields[.transactionID] == "0")
        #expect(record.fields[.purchaseDate] == "2023-10-19T01:45:36.049729Z")
        #expect(record.fields[.price] == nil)
        #expect(record.signedDate == Instant(microseconds: 1_697_679_936_056_485))

        let path = "server-library/xcode/xcode-signed-app-transaction"
        // Xcode's year-0 placeholder is outside 0001-9999: the app transaction is refused
        // where it is read, with the range in its reason, self-signed or unchecked.
        let placeholder =
            "originalPurchaseDate: timestamp '-62135769600000' is outside \(Instant.supportedDescription)"
        let selfSigned = try AppStoreFiles.readFixture(path, options: .acceptingSelfSigned, checker: .xcodeAware)
        #expect(selfSigned.rejections == [placeholder])
        #expect(try AppStoreFiles.readFixture(path).rejections == [placeholder])

        let renewal = try AppStoreFiles.readFixture(
            "server-library/xcode/xcode-signed-renewal-info", options: .acceptingSelfSigned, checker: .xcodeAware)
        #expect(
            renewal.renewals == [
                AppStoreRenewal(
                    line: 1, originalTransactionID: "0", renewalState: nil, gracePeriodExpiresDate: nil,
                    signedDate: Instant(microseconds: 1_697_679_936_711_074), trust: .selfSigned)
            ])
    }

    @Test("a payload that fails verification and claims Production is refused, self-signed data accepted or not")
    func selfSignedProduction() throws {
        let jws = AppStoreFiles.jws(#"{"transactionId": "t", "environment": "Production"}"#)
        for options in [AppStoreReadOptions(trustDecoded: true), .acceptingSelfSigned] {
            let contents = try AppStoreFiles.read(text: jws, options: options, checker: .selfSigning)
            #expect(contents.rejections == ["x5c holds 1 certificate, not 3"])
        }
    }

    @Test(
        "decoded data is read only with --trust-decoded",
        arguments: [
            (
                "server-library/models/signedTransaction.json",
                "unsigned decoded transaction: read only with --trust-decoded"
            ),
            (
                "server-library/models/signedRenewalInfo.json",
                "unsigned decoded renewal info: read only with --trust-decoded"
            ),
            (
                "server-library/models/appTransaction.json",
                "unsigned decoded app transaction: read only with --trust-decoded"
            ),
            (
                "server-library/models/signedSummaryNotification.json",
                "unsigned decoded notification: read only with --trust-decoded"
            ),
            (
                "receipts/verify_receipt_response.json",
                "unsigned verifyReceipt response: read only with --trust-decoded"
            ),
            ("receipts/v1-server-notification.json", "unsigned V1 notification: read only with --trust-decoded"),
        ])
    func untrustedDecoded(path: String, reason: String) throws {
        let contents = try AppStoreFiles.readFixture(path, options: AppStoreReadOptions(trustDecoded: false))
        #expect(contents.records == [.rejected(line: 1, reason: reason)])
    }

    @Test("the policy's bundle ID rejects other bundles, and payloads that name none")
    func bundleMismatch() throws {
        let options = AppStoreReadOptions(trustDecoded: true, bundleID: "com.example")
        let wrong = try AppStoreFiles.readFixture("server-library/mock_signed_data/wrongBundleId", options: options)
        #expect(
            wrong.rejections == [#"bundle mismatch: bundleId "com.example.wrong" is not apple.bundle_id "com.example""#]
        )
        let right = try AppStoreFiles.readFixture("server-library/mock_signed_data/testNotification", options: options)
        #expect(right.tally == Tally(noted: 1))
        let none = try AppStoreFiles.read(text: #"{"transactionId": "t"}"#, options: options)
        #expect(none.rejections == [#"bundle mismatch: no bundleId, apple.bundle_id is "com.example""#])
        let receipt = try AppStoreFiles.readFixture("receipts/verify_receipt_response.json", options: options)
        #expect(
            receipt.rejections == [#"bundle mismatch: bundle_id "com.some.thing" is not apple.bundle_id "com.example""#]
        )
        // Renewal info names no bundle: only its environment is checked.
        let renewal = try AppStoreFiles.readFixture("server-library/models/signedRenewalInfo.json", options: options)
        #expect(renewal.tally == Tally(renewals: 1))
    }

    @Test("the policy's environment rejects other environments")
    func environmentMismatch() throws {
        let production = AppStoreReadOptions(trustDecoded: true, environment: "Production")
        let sandbox = AppStoreReadOptions(trustDecoded: true, environment: "Sandbox")
        let path = "server-library/models/signedTransaction.json"
        #expect(
            try AppStoreFiles.readFixture(path, options: production).rejections == [
                #"environment mismatch: environment "LocalTesting" is not apple.environment "Production""#
            ])
        #expect(try AppStoreFiles.readFixture(path, options: sandbox).tally == Tally(transactions: 1))
        let xcode = "server-library/xcode/xcode-signed-app-transaction"
        #expect(
            try AppStoreFiles.readFixture(
                xcode, options: AppStoreReadOptions(environment: "Production", acceptSelfSigned: true),
                checker: .xcodeAware
            ).rejections == [
                #"environment mismatch: receiptType "Xcode" is not apple.environment "Production""#
            ])
        #expect(
            try AppStoreFiles.readFixture("receipts/verify_receipt_response.json", options: production).rejections == [
                #"environment mismatch: environment "Production" (receipt_type "ProductionSandbox") is not "#
                    + #"apple.environment "Production""#
            ])
        let wrong = try AppStoreFiles.readFixture("server-library/mock_signed_data/wrongBundleId", options: production)
        #expect(wrong.rejections == [#"environment mismatch: no environment, apple.environment is "Production""#])
    }
}

// MARK: - Values

extension AppStoreReaderTests {
    @Test(
        "milliunits become exact decimal units",
        arguments: [
            ("9990", "9.99"), ("230000", "230"), ("0", "0"), ("10990", "10.99"), ("5", "0.005"), ("1000", "1"),
            ("007", "0.007"), ("-1500", "-1.5"), ("9990.5", "9.9905"),
            ("123456789012345678901", "123456789012345678.901"),
            ("1e3", nil), ("abc", nil), ("", nil), ("-", nil), ("1.", nil),
        ] as [(String, String?)])
    func milliunits(text: String, units: String?) {
        #expect(AppStoreValue.units(milliunits: text) == units)
    }

    @Test(
        "epoch milliseconds, fractional and negative, become instants",
        arguments: [
            ("1698148900000", 1_698_148_900_000_000), ("1697680122257.447", 1_697_680_122_257_447),
            ("1697679936049.7297", 1_697_679_936_049_729), ("-62135769600000", -62_135_769_600_000_000),
            ("-1.5", -1500), ("0", 0), ("1e3", nil), ("12a", nil), ("", nil), ("99999999999999999", nil),
        ] as [(String, Int64?)])
    func milliseconds(text: String, microseconds: Int64?) {
        #expect(AppStoreValue.instant(milliseconds: text) == microseconds.map { Instant(microseconds: $0) })
    }

    @Test("enums map to SPEC §2's words, Xcode's environment to sandbox, prices to units")
    func enumValues() throws {
        let payload = #"""
            {"transactionId": "t", "productId": "p", "type": "Non-Renewing Subscription", "purchaseDate": 1700000000000,
             "inAppOwnershipType": "FAMILY_SHARED", "environment": "Xcode", "price": 990, "expiresDate": null}
            """#
        let transaction = try #require(try AppStoreFiles.read(text: payload).transactions.first)
        #expect(
            transaction.fields == [
                .transactionID: "t", .productID: "p", .productType: "non_renewing",
                .purchaseDate: "2023-11-14T22:13:20Z", .ownershipType: "family_shared", .environment: "sandbox",
                .price: "0.99",
            ])
        #expect(AppStoreValue.productType("Non-Consumable") == "non_consumable")
        #expect(AppStoreValue.productType("Consumable") == "consumable")
        #expect(
            ["iOS", "macOS", "tvOS", "visionOS", "Android"].map(AppStoreValue.platform) == [
                "ios", "macos", "tvos", "visionos", "Android",
            ])
        #expect(
            ["Production", "Sandbox", "Xcode", "LocalTesting"].map(AppStoreValue.environment) == [
                "production", "sandbox", "sandbox", "sandbox",
            ])
    }

    @Test(
        "a member that cannot be read refuses its record where it is read, the member named as the App Store spells it",
        arguments: [
            (#""type": "Subscription Box""#, "unknown type 'Subscription Box'"),
            (#""purchaseDate": "yesterday""#, "purchaseDate: not epoch milliseconds 'yesterday'"),
            (#""expiresDate": 1e12"#, "expiresDate: not epoch milliseconds '1e12'"),
            (#""inAppOwnershipType": "BORROWED""#, "unknown inAppOwnershipType 'BORROWED'"),
            (#""environment": "Staging""#, "unknown environment 'Staging'"),
            (#""price": "lots""#, "bad price 'lots' (not a decimal)"),
            (#""productId": """#, "missing required field productId"),
        ])
    func unreadableMembers(member: String, reason: String) throws {
        let base = [
            #""transactionId": "t""#, #""productId": "p""#, #""type": "Consumable""#,
            #""purchaseDate": 1700000000000"#,
        ]
        let key = member.prefix { $0 != ":" }
        let members = base.filter { !$0.hasPrefix(key) } + [member]
        let contents = try AppStoreFiles.read(text: "{" + members.joined(separator: ", ") + "}")
        #expect(contents.records == [.rejected(line: 1, reason: reason)])
    }
}

// MARK: - verifyReceipt and V1 notifications

extension AppStoreReaderTests {
    @Test("verify_receipt_response.json: one customer, transactions of in_app ∪ latest_receipt_info, a renewal")
    func verifyReceiptResponse() throws {
        let contents = try AppStoreFiles.readFixture("receipts/verify_receipt_response.json")
        let owner = "1000000723811158"
        let customer = try #require(contents.customers.first)
        #expect(
            customer.fields == [
                .customerID: owner, .originalAppVersion: "1.0", .originalPurchaseDate: "2013-08-01T07:00:00Z",
                .environment: "sandbox",
            ])
        #expect(customer.line == 3)
        #expect(customer.receiptOwnerTransactionID == owner)
        #expect(customer.signedDate == Instant(microseconds: 1_604_851_257_000_000))
        #expect(customer.trust == .unsigned)
        #expect(contents.transactions.count == 43)
        #expect(Set(contents.transactions.compactMap { $0.fields[.customerID] }) == [owner])
        #expect(Set(contents.transactions.compactMap { $0.fields[.productType] }) == ["auto_renewable"])
        #expect(Set(contents.transactions.compactMap { $0.fields[.environment] }) == ["sandbox"])
        let latest = try #require(contents.transactions.first { $0.fields[.transactionID] == "1000000767477815" })
        #expect(latest.line == 781)
        #expect(
            latest.fields == [
                .transactionID: "1000000767477815", .originalTransactionID: owner, .customerID: owner,
                .productID: "one_month_subscription", .productType: "auto_renewable",
                .purchaseDate: "2021-01-20T13:00:00Z", .expiresDate: "2021-01-20T13:05:00Z",
                .ownershipType: "purchased", .environment: "sandbox",
            ])
        #expect(
            contents.renewals == [
                AppStoreRenewal(
                    line: 804, originalTransactionID: owner, renewalState: .expired, gracePeriodExpiresDate: nil,
                    signedDate: Instant(microseconds: 1_604_851_257_000_000), trust: .unsigned)
            ])
        #expect(contents.records.map(\.line) == contents.records.map(\.line).sorted())
    }

    @Test("a wrapper names the receipt's customer")
    func wrappedReceipt() throws {
        let body = try AppStoreFiles.text("receipts/verify_receipt_response.json")
        let text = #"{"customer_id": "c-7", "response": \#(body)}"#
        #expect(AppStoreFiles.recognize(Array(text.utf8)) == .appStore(.wrappedReceipts))
        let contents = try AppStoreFiles.read(text: text)
        #expect(contents.tally == Tally(transactions: 43, customers: 1, renewals: 1))
        #expect(contents.customers.first?.fields[.customerID] == "c-7")
        #expect(contents.customers.first?.receiptOwnerTransactionID == "1000000723811158")
        #expect(Set(contents.transactions.compactMap { $0.fields[.customerID] }) == ["c-7"])
    }

    static let smallReceipt = #"""
        {"status": 0, "environment": "Production", "receipt": {"receipt_type": "Production", "bundle_id": "com.example",
          "original_application_version": "3.1", "original_purchase_date_ms": "1500000000000", "in_app": [
          {"transaction_id": "t2", "original_transaction_id": "o2", "product_id": "lifetime", "purchase_date_ms": 1600000000000, "quantity": 1},
          {"transaction_id": "t1", "original_transaction_id": "o1", "product_id": "monthly", "purchase_date_ms": "1550000000000", "expires_date_ms": "1552592000000"}
        ]},
         "latest_receipt_info": [
          {"transaction_id": "t1", "original_transaction_id": "o1", "product_id": "monthly", "purchase_date_ms": "1550000000000",
           "expires_date_ms": "1552592000000", "cancellation_date_ms": "1551000000000", "in_app_ownership_type": "FAMILY_SHARED"}
         ],
         "pending_renewal_info": [
          {"original_transaction_id": "o1", "is_in_billing_retry_period": "1", "grace_period_expires_date_ms": "1553000000000"},
          {"original_transaction_id": "o3", "is_in_billing_retry_period": true},
          {"original_transaction_id": "o4", "auto_renew_status": "1"},
          {"auto_renew_status": "1"}
        ]}
        """#

    @Test("a receipt: one transaction in both lists is read once (the latest copy); types by expires_date_ms")
    func receiptRules() throws {
        let contents = try AppStoreFiles.read(text: Self.smallReceipt)
        #expect(contents.tally == Tally(transactions: 2, customers: 1, renewals: 3, rejected: 1))
        #expect(
            contents.customers.first?.fields == [
                .customerID: "o1", .originalAppVersion: "3.1", .originalPurchaseDate: "2017-07-14T02:40:00Z",
                .environment: "production",
            ])
        #expect(
            contents.transactions.map(\.fields) == [
                [
                    .transactionID: "t2", .originalTransactionID: "o2", .customerID: "o1", .productID: "lifetime",
                    .productType: "non_consumable", .purchaseDate: "2020-09-13T12:26:40Z", .ownershipType: "purchased",
                    .environment: "production",
                ],
                [
                    .transactionID: "t1", .originalTransactionID: "o1", .customerID: "o1", .productID: "monthly",
                    .productType: "auto_renewable", .purchaseDate: "2019-02-12T19:33:20Z",
                    .expiresDate: "2019-03-14T19:33:20Z", .revocationDate: "2019-02-24T09:20:00Z",
                    .ownershipType: "family_shared", .environment: "production",
                ],
            ])
        #expect(contents.transactions.map(\.line) == [3, 7])
        #expect(contents.renewals.map(\.originalTransactionID) == ["o1", "o3", "o4"])
        #expect(contents.renewals.map(\.renewalState) == [.inGracePeriod, .inBillingRetry, nil])
        #expect(contents.renewals.first?.gracePeriodExpiresDate?.iso8601 == "2019-03-19T12:53:20Z")
        #expect(contents.rejections == ["pending_renewal_info entry names no original_transaction_id"])
    }

    @Test("a bare receipt without in-app rows names no customer; wrapped, it gives the customer")
    func receiptWithoutRows() throws {
        let body =
            #"{"status": 0, "environment": "Sandbox", "receipt": {"original_application_version": "1.0", "in_app": []}}"#
        let bare = try AppStoreFiles.read(text: body)
        #expect(
            bare.rejections == [
                #"verifyReceipt response names no customer: wrap it as {"customer_id": …, "response": …}"#
            ])
        let wrapped = try AppStoreFiles.read(text: #"{"customer_id": 42, "response": \#(body)}"#)
        #expect(
            wrapped.customers.map(\.fields) == [
                [.customerID: "42", .originalAppVersion: "1.0", .environment: "sandbox"]
            ])
    }

    @Test(
        "a verifyReceipt status other than 0 is one rejected row with its meaning",
        arguments: [
            (
                #"{"status":21002}"#,
                "verifyReceipt status 21002: the receipt data was malformed or the service had a temporary issue"
            ),
            (
                #"{"status": 21007, "environment": "Production"}"#,
                "verifyReceipt status 21007: a sandbox receipt was sent to production: verify it against the sandbox"
            ),
            (
                #"{"status": 21150, "is-retryable": true}"#,
                "verifyReceipt status 21150: internal data access error (is-retryable: true)"
            ),
            (#"{"status": 42}"#, "verifyReceipt status 42: unknown status 42"),
            (#"{"status": "soon"}"#, #"verifyReceipt status "soon" is not a number"#),
            (
                #"{"customer_id": "c", "response": {"status": 21003}}"#,
                "verifyReceipt status 21003: the receipt could not be authenticated"
            ),
        ])
    func receiptStatus(text: String, reason: String) throws {
        let contents = try AppStoreFiles.read(text: text, options: AppStoreReadOptions(trustDecoded: false))
        #expect(contents.records == [.rejected(line: 1, reason: reason)])
    }

    @Test("the fixture's invalid-receipt response")
    func invalidReceiptFixture() throws {
        let contents = try AppStoreFiles.readFixture("receipts/inAppPurchaseInvalidReceiptResponse.json")
        #expect(
            contents.rejections == [
                "verifyReceipt status 21002: the receipt data was malformed or the service had a temporary issue"
            ])
    }

    @Test("a V1 notification: its unified receipt's transactions and renewals, no customer")
    func v1Notification() throws {
        let contents = try AppStoreFiles.readFixture("receipts/v1-server-notification.json")
        #expect(contents.transactions.count == 54)
        #expect(contents.transactions.allSatisfy { $0.fields[.customerID] == nil })
        #expect(Set(contents.transactions.compactMap { $0.fields[.environment] }) == ["production"])
        #expect(contents.renewals.map(\.renewalState) == [.expired])
        #expect(contents.notificationTypes == [:])
        let empty = try AppStoreFiles.read(text: #"{"notification_type": "CANCEL", "unified_receipt": {"status": 0}}"#)
        #expect(empty.notes == ["V1 CANCEL notification carries no transaction"])
        let old = try AppStoreFiles.read(text: #"{"notification_type": "CANCEL", "latest_receipt": "eA=="}"#)
        #expect(old.rejections == ["V1 notification CANCEL has no unified_receipt object: not read"])
    }
}

// MARK: - Recognition and containers

extension AppStoreReaderTests {
    @Test(
        "canonical files are not App Store files",
        arguments: [
            #"[{"customer_id": "c1", "platform": "ios"}]"#,
            "{\"transaction_id\": \"t\", \"customer_id\": \"c\", \"product_id\": \"p\"}\n{\"transaction_id\": \"u\"}\n",
            "customer_id,platform,original_app_version\nc1,ios,300\n",
            "\u{FEFF}transaction_id,customer_id\n",
            #"{"customer_id": "c1", "platform": "ios", "environment": "sandbox"}"#,
            "", "  \n", "{}", "[]", #"["hello"]"#, "[1, 2]",
        ])
    func canonicalIsNotAppStore(text: String) {
        #expect(AppStoreFiles.recognize(Array(text.utf8)) == nil)
    }

    @Test(
        "shapes recognized from small inputs",
        arguments: [
            (#"["eyJhbGciOiJFUzI1NiJ9.e30.c2ln"]"#, .appStore(.jwsArray)),
            ("\u{FEFF}{\"signedPayload\": \"x\"}", .appStore(.notificationBodies)),
            (#"[{"transactionId": "1"}]"#, .appStore(.decodedTransactions)),
            (#"{"receiptType": "Production", "appAppleId": 1}"#, .appStore(.decodedAppTransactions)),
            (#"{"data": [], "bundleId": "b"}"#, .appStore(.subscriptionStatuses)),
            (#"{"customer_id": "c1", "response": {"status": 0}}"#, .appStore(.wrappedReceipts)),
            ("-----BEGIN CERTIFICATE-----\nMIIB\n", .notRecords("a PEM certificate, not records")),
            ("eyJhIjogMSwgImIiOiAyfQ==\n", .notRecords("base64-encoded JSON, not records: decode it first")),
            ("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=\n", .notRecords("an unrecognized base64 blob, not records")),
        ] as [(String, AppStoreRecognition)])
    func smallShapes(text: String, recognition: AppStoreRecognition) {
        #expect(AppStoreFiles.recognize(Array(text.utf8)) == recognition)
    }

    @Test(
        "a prefix cut inside a large value still tells the shape",
        arguments: [
            ("receipts/verify_receipt_response.json", .receipts),
            ("receipts/v1-server-notification.json", .v1Notifications),
            ("server-library/models/transactionHistoryResponse.json", .signedTransactionList),
            ("server-library/models/getAllSubscriptionStatusesResponse.json", .subscriptionStatuses),
        ] as [(String, AppStoreShape)])
    func cutPrefix(path: String, shape: AppStoreShape) throws {
        let bytes = try AppStoreFiles.bytes(path)
        let bracket = try #require(bytes.firstIndex(of: UInt8(ascii: "[")))
        let cut = Array(bytes.prefix(bracket + 20))
        #expect(AppStoreFiles.recognize(cut) == .appStore(shape))
    }

    @Test("a DER certificate is told from its first bytes")
    func derPrefix() throws {
        let bytes = try AppStoreFiles.bytes("server-library/certs/test_root.der")
        #expect(AppStoreFiles.recognize(Array(bytes.prefix(16))) == .notRecords(Self.certificate))
    }

    @Test("a JWS text file: one row per non-blank line, at its line")
    func jwsLines() throws {
        let transaction = try AppStoreFiles.jws(fixture: "server-library/models/signedTransaction.json")
        let renewal = try AppStoreFiles.jws(fixture: "server-library/models/signedRenewalInfo.json")
        let appTransaction = try AppStoreFiles.jws(fixture: "server-library/models/appTransaction.json")
        let text = "\(transaction)\r\n\r\n  \n\(renewal)\nnot-a-jws\n\(appTransaction)"
        let contents = try AppStoreFiles.read(text: text)
        #expect(contents.tally == Tally(transactions: 1, customers: 1, renewals: 1, rejected: 1))
        #expect(contents.records.map(\.line) == [1, 4, 5, 6])
        #expect(contents.rejections == ["not a compact JWS: 1 dot-separated segments, not 3"])
    }

    @Test("a JSON array of JWS strings: non-strings and non-JWS are rejected rows")
    func jwsArray() throws {
        let transaction = try AppStoreFiles.jws(fixture: "server-library/models/signedTransaction.json")
        let contents = try AppStoreFiles.read(text: "[\n\"\(transaction)\",\n5,\n\"eyJnope\"\n]")
        #expect(contents.records.map(\.line) == [2, 3, 4])
        #expect(contents.tally == Tally(transactions: 1, rejected: 2))
        #expect(contents.rejections.first == "a number is neither a JSON object nor a JWS string")
    }

    @Test("JSON Lines: a broken line is one rejected row and reading goes on")
    func brokenJSONLine() throws {
        let test = try AppStoreFiles.text("server-library/mock_signed_data/testNotification")
        let text =
            "{\"signedPayload\": \"\(test)\"}\n{\"signedPayload\": \"eyJ\n{\"signedPayload\": \"\(test)\"}\n"
            + "{\"customer_id\": \"c\"}\n"
        let contents = try AppStoreFiles.read(text: text)
        #expect(
            contents.records == [
                .noted(line: 1, note: "TEST notification carries no transaction"),
                .rejected(line: 2, reason: "malformed JSON at column 23: control character in string"),
                .noted(line: 3, note: "TEST notification carries no transaction"),
                .rejected(line: 4, reason: "object is not App Store data (keys: customer_id)"),
            ])
    }

    @Test("a broken single document is one rejected row at the line it starts on, naming where it broke")
    func brokenDocument() throws {
        let text = "{\n  \"signedTransactionInfo\": \"x\",\n  oops\n}\n"
        let contents = AppStoreFileReader.read(
            Array(text.utf8), shape: .transactionInfoResponse, options: AppStoreReadOptions(),
            checker: StubChecker.unchecked)
        let reason = "malformed JSON at line 3, column 3: expected a string key"
        #expect(contents.records == [.rejected(line: 1, reason: reason)])
        let array = "[{\"transactionId\": \"a\", \(Self.requiredMembers)},\n{\"transactionId\": \"b\"\n"
        let read = try AppStoreFiles.read(text: array)
        #expect(read.tally == Tally(transactions: 1, rejected: 1))
        #expect(
            read.records.last == .rejected(line: 3, reason: "malformed JSON at column 1: expected ',' or '}' in object")
        )
    }

    /// The members every transaction needs besides its id, for payloads built by hand.
    static let requiredMembers = #""productId": "p", "type": "Consumable", "purchaseDate": 1700000000000"#

    @Test("an API response nested in JSON Lines with other shapes: each element by its own keys")
    func mixedElements() throws {
        let text = [
            #"{"transactionId": "t", "productId": "p", "type": "Consumable", "purchaseDate": 1700000000000}"#,
            #"{"errorCode": 4040010, "errorMessage": "Transaction id not found."}"#,
            #"{"signedTransactions": ["x"]}"#,
        ].joined(separator: "\n")
        let contents = try AppStoreFiles.read(text: text)
        #expect(contents.tally == Tally(transactions: 1, rejected: 2))
        #expect(contents.rejections.first?.hasPrefix("an App Store Server API error body") == true)
    }
}

// MARK: - Support

extension AppStoreReaderTests {
    /// Checkers standing in for `SignatureVerifier`: verification is its own tests' subject.
    enum StubChecker: JWSChecking {
        /// `--no-verify`: everything unchecked.
        case unchecked
        /// Everything refused with one reason.
        case refusing(String)
        /// Refuses payloads that name Xcode or LocalTesting (as the real verifier refuses their
        /// self-signed chains), verifies everything else.
        case xcodeAware
        /// Refuses everything as self-signed.
        case selfSigning
        /// Refuses, saying what it was asked: `at <signedAt>`.
        case echoing

        func check(_ jws: CompactJWS, signedAt: Instant?) -> SignatureOutcome {
            switch self {
            case .unchecked: return .unchecked
            case .refusing(let reason): return .refused(reason)
            case .xcodeAware:
                let payload = String(decoding: jws.payload, as: UTF8.self)
                let selfSigned = payload.contains(#""Xcode""#) || payload.contains(#""LocalTesting""#)
                return selfSigned ? .refused("x5c holds 1 certificate, not 3") : .verified
            case .selfSigning: return .refused("x5c holds 1 certificate, not 3")
            case .echoing: return .refused("at \(signedAt?.iso8601 ?? "nil")")
            }
        }
    }

    /// How many rows of each kind a file gave.
    struct Tally: Equatable, Sendable, CustomStringConvertible {
        var transactions = 0
        var customers = 0
        var renewals = 0
        var noted = 0
        var rejected = 0

        init(transactions: Int = 0, customers: Int = 0, renewals: Int = 0, noted: Int = 0, rejected: Int = 0) {
            self.transactions = transactions
            self.customers = customers
            self.renewals = renewals
            self.noted = noted
            self.rejected = rejected
        }

        init(_ records: [AppStoreRecord]) {
            for record in records {
                switch record {
                case .transaction: transactions += 1
                case .customer: customers += 1
                case .renewal: renewals += 1
                case .noted: noted += 1
                case .rejected: rejected += 1
                }
            }
        }

        var description: String {
            "t\(transactions) c\(customers) r\(renewals) n\(noted) x\(rejected)"
        }
    }

    /// The copied App Store fixtures, and small files made in the test.
    enum AppStoreFiles {
        /// `Fixtures/AppStore` in the test bundle.
        static func folder() throws -> URL {
            let fixtures = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
            return fixtures.appendingPathComponent("AppStore")
        }

        /// A fixture's bytes, by path under `Fixtures/AppStore`.
        static func bytes(_ path: String) throws -> [UInt8] {
            Array(try Data(contentsOf: try folder().appendingPathComponent(path)))
        }

        /// A fixture's text.
        static func text(_ path: String) throws -> String {
            String(decoding: try bytes(path), as: UTF8.self)
        }

        /// Every fixture file, as paths under `Fixtures/AppStore`, sorted.
        static func allPaths() throws -> [String] {
            let root = try folder()
            let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
            var paths: [String] = []
            while let url = enumerator?.nextObject() as? URL {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                paths.append(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)))
            }
            return paths.sorted()
        }

        static func recognize(_ bytes: [UInt8]) -> AppStoreRecognition? {
            AppStoreRecognizer.recognize(bytes)
        }

        /// Recognizes and reads `bytes`; `nil` contents when the file is not App Store records.
        static func read(
            _ bytes: [UInt8], options: AppStoreReadOptions = AppStoreReadOptions(trustDecoded: true),
            checker: StubChecker = .unchecked
        ) throws -> AppStoreFileContents {
            let recognition = recognize(bytes)
            guard case .appStore(let shape) = recognition else {
                Issue.record("not recognized as App Store records: \(String(describing: recognition))")
                return AppStoreFileContents()
            }
            return AppStoreFileReader.read(bytes, shape: shape, options: options, checker: checker)
        }

        static func read(
            text: String, options: AppStoreReadOptions = AppStoreReadOptions(trustDecoded: true),
            checker: StubChecker = .unchecked
        ) throws -> AppStoreFileContents {
            try read(Array(text.utf8), options: options, checker: checker)
        }

        static func readFixture(
            _ path: String, options: AppStoreReadOptions = AppStoreReadOptions(trustDecoded: true),
            checker: StubChecker = .unchecked
        ) throws -> AppStoreFileContents {
            try read(try bytes(path), options: options, checker: checker)
        }

        /// A compact JWS of `payload` with a dummy signature: the stub checkers do not verify.
        static func jws(_ payload: String, header: String = #"{"alg":"ES256"}"#) -> String {
            func segment(_ bytes: [UInt8]) -> String {
                Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            }
            return [Array(header.utf8), Array(payload.utf8), [UInt8](repeating: 7, count: 64)].map(segment)
                .joined(separator: ".")
        }

        /// A fixture's JSON as a JWS (the decoded model files are the payloads of signed ones).
        static func jws(fixture path: String) throws -> String {
            jws(try text(path))
        }
    }
}

extension AppStoreFileContents {
    fileprivate var transactions: [AppStoreTransaction] {
        records.compactMap { if case .transaction(let value) = $0 { return value } else { return nil } }
    }
    fileprivate var customers: [AppStoreCustomer] {
        records.compactMap { if case .customer(let value) = $0 { return value } else { return nil } }
    }
    fileprivate var renewals: [AppStoreRenewal] {
        records.compactMap { if case .renewal(let value) = $0 { return value } else { return nil } }
    }
    fileprivate var rejections: [String] {
        records.compactMap { if case .rejected(_, let reason) = $0 { return reason } else { return nil } }
    }
    fileprivate var notes: [String] {
        records.compactMap { if case .noted(_, let note) = $0 { return note } else { return nil } }
    }
    fileprivate var tally: AppStoreReaderTests.Tally { AppStoreReaderTests.Tally(records) }
}

extension AppStoreReadOptions {
    /// `--trust-decoded` and `--accept-self-signed`.
    static let acceptingSelfSigned = AppStoreReadOptions(trustDecoded: true, acceptSelfSigned: true)
}
