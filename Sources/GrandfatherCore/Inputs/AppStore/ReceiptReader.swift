import GrandfatherEngine

/// Legacy verifyReceipt responses (FORMATS.md §5) and V1 notifications, which carry no
/// signature: read as `unsigned`, and only with `--trust-decoded`.
///
/// A receipt does not state a product's type: a row with `expires_date_ms` is read as
/// `auto_renewable` (only auto-renewable subscriptions expire in a receipt), any other as
/// `non_consumable` (finished consumables leave the receipt; a non-renewing subscription
/// cannot be told from a non-consumable). Only the `_ms` dates are read.
extension AppStoreReading {
    /// What a receipt's rows came to.
    private struct ReceiptRows {
        var transactions: [AppStoreTransaction] = []
        var others: [AppStoreRecord] = []

        /// The `original_transaction_id` of the earliest purchase (the first row on a tie),
        /// which names a bare receipt's customer.
        var ownerTransactionID: String? {
            var owner: (purchase: Instant, id: String)?
            for row in transactions {
                guard let id = row.subscription else { continue }
                if let current = owner, row.values.purchaseDate >= current.purchase { continue }
                owner = (row.values.purchaseDate, id)
            }
            return owner?.id
        }
    }

    /// One verifyReceipt body, bare or wrapped as `{"customer_id": …, "response": {…}}`.
    mutating func readReceipt(_ element: JSONValue.Located) {
        var body = element
        var customerID: String?
        if let response = element["response"] {
            guard response.isObject else {
                return reject(response.line, "response is \(response.typeName), not a verifyReceipt body")
            }
            body = response
            customerID = element["customer_id"]?.text
        }
        guard let status = body["status"]?.text else { return reject(element.line, "verifyReceipt body has no status") }
        guard status == "0" else {
            return reject(
                element.line, ReceiptStatus.reason(status, retryable: body["is-retryable"] ?? body["is_retryable"]))
        }
        guard options.trustDecoded else {
            return reject(element.line, "unsigned verifyReceipt response: read only with --trust-decoded")
        }
        let receipt = body["receipt"]
        let environmentText = body["environment"]?.text
        let receiptType = receipt?["receipt_type"]?.text
        let environmentName = Self.receiptEnvironment(environmentText, receiptType: receiptType)
        var described = environmentText.map { "environment \"\(Excerpt.of($0))\"" } ?? "no environment"
        if let receiptType { described += " (receipt_type \"\(Excerpt.of(receiptType))\")" }
        if let problem = admissionProblem(
            bundle: (key: "bundle_id", value: receipt?["bundle_id"]?.text), environment: environmentName,
            described: described)
        {
            return reject(element.line, problem)
        }
        guard let environment = Self.environment(environmentName) else {
            return reject(element.line, "unknown environment '\(Excerpt.of(environmentName ?? ""))'")
        }
        let signedDate = AppStoreValue.instant(receipt?["receipt_creation_date_ms"])
        var rows = readRows(
            inApp: receipt?["in_app"], latest: body["latest_receipt_info"], pending: body["pending_renewal_info"],
            environment: environment, signedDate: signedDate)
        let owner = rows.ownerTransactionID
        guard let customer = customerID ?? owner else {
            return reject(
                element.line,
                "verifyReceipt response names no customer: wrap it as {\"customer_id\": …, \"response\": …}")
        }
        for index in rows.transactions.indices { rows.transactions[index].texts[.customerID] = customer }
        var records = rows.transactions.map(AppStoreRecord.transaction) + rows.others
        if let receipt, receipt.isObject {
            records.append(
                Self.customer(
                    receipt, id: customer, owner: owner, environment: environment, signedDate: signedDate))
        }
        emitInLineOrder(records)
    }

    /// One V1 notification: its `unified_receipt` read like a receipt body without `receipt`
    /// (transactions and renewals, no customer, `customer_id` left to the linker).
    mutating func readV1Notification(_ element: JSONValue.Located) {
        let type = element["notification_type"]?.text ?? "(none)"
        guard let unified = element["unified_receipt"], unified.isObject else {
            return reject(element.line, "V1 notification \(type) has no unified_receipt object: not read")
        }
        if let status = unified["status"]?.text, status != "0" {
            return reject(element.line, ReceiptStatus.reason(status, retryable: unified["is-retryable"]))
        }
        guard options.trustDecoded else {
            return reject(element.line, "unsigned V1 notification: read only with --trust-decoded")
        }
        let environmentText = unified["environment"]?.text ?? element["environment"]?.text
        let environmentName = Self.receiptEnvironment(environmentText, receiptType: nil)
        if let problem = admissionProblem(
            bundle: (key: "bid", value: element["bid"]?.text), environment: environmentName,
            described: environmentText.map { "environment \"\(Excerpt.of($0))\"" } ?? "no environment")
        {
            return reject(element.line, problem)
        }
        guard let environment = Self.environment(environmentName) else {
            return reject(element.line, "unknown environment '\(Excerpt.of(environmentName ?? ""))'")
        }
        let rows = readRows(
            inApp: nil, latest: unified["latest_receipt_info"], pending: unified["pending_renewal_info"],
            environment: environment, signedDate: nil)
        let records = rows.transactions.map(AppStoreRecord.transaction) + rows.others
        if records.isEmpty {
            return emit(.noted(line: element.line, note: "V1 \(type) notification carries no transaction"))
        }
        emitInLineOrder(records)
    }

    private mutating func emitInLineOrder(_ records: [AppStoreRecord]) {
        for record in records.enumerated().sorted(by: { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }) {
            emit(record.element)
        }
    }

    /// `in_app` ∪ `latest_receipt_info` (one transaction in both: the latest copy) and
    /// `pending_renewal_info`.
    private func readRows(
        inApp: JSONValue.Located?, latest: JSONValue.Located?, pending: JSONValue.Located?, environment: Environment,
        signedDate: Instant?
    ) -> ReceiptRows {
        var rows = ReceiptRows()
        var indexByID: [String: Int] = [:]
        for (name, list) in [("in_app", inApp), ("latest_receipt_info", latest)] {
            guard let list else { continue }
            guard let elements = list.elements else {
                let detail = list.isObject ? ": an iOS 6-style transaction receipt, not read" : ""
                rows.others.append(.rejected(line: list.line, reason: "\(name) is \(list.typeName)\(detail)"))
                continue
            }
            for row in elements {
                guard row.isObject else {
                    rows.others.append(
                        .rejected(line: row.line, reason: "\(name) element is \(row.typeName), not an object"))
                    continue
                }
                let record = Self.transaction(row, environment: environment, signedDate: signedDate)
                guard case .transaction(let transaction) = record else {
                    rows.others.append(record)
                    continue
                }
                if let id = transaction.transactionID, let index = indexByID[id] {
                    rows.transactions[index] = transaction
                } else {
                    transaction.transactionID.map { indexByID[$0] = rows.transactions.count }
                    rows.transactions.append(transaction)
                }
            }
        }
        for entry in pending?.elements.map(Array.init) ?? [] {
            guard let subscription = entry["original_transaction_id"]?.text else {
                rows.others.append(
                    .rejected(line: entry.line, reason: "pending_renewal_info entry names no original_transaction_id"))
                continue
            }
            let graceEnds: Instant?
            do throws(AppStoreMembers.Problem) {
                graceEnds = try AppStoreMembers(entry).instant("grace_period_expires_date_ms")
            } catch {
                rows.others.append(.rejected(line: entry.line, reason: error.reason))
                continue
            }
            let state = AppStorePayloadMapping.renewalState(
                retrying: entry["is_in_billing_retry_period"]?.text, graceEnds: graceEnds,
                expirationIntent: entry["expiration_intent"]?.text)
            rows.others.append(
                .renewal(
                    AppStoreRenewal(
                        line: entry.line, originalTransactionID: subscription, renewalState: state,
                        gracePeriodExpiresDate: graceEnds, signedDate: signedDate, trust: .unsigned)))
        }
        return rows
    }

    /// An `in_app` / `latest_receipt_info` row as a transaction (customer set by the caller),
    /// or the row refused with the first member that cannot be read.
    private static func transaction(
        _ row: JSONValue.Located, environment: Environment, signedDate: Instant?
    ) -> AppStoreRecord {
        let members = AppStoreMembers(row)
        do throws(AppStoreMembers.Problem) {
            let texts = try members.identity(
                transactionID: "transaction_id", originalTransactionID: "original_transaction_id",
                productID: "product_id")
            let purchased = try members.requiredInstant("purchase_date_ms")
            let expires = try members.instant("expires_date_ms")
            let revoked = try members.instant("cancellation_date_ms")
            let ownership: OwnershipType? = try members.value(
                "in_app_ownership_type", spelling: AppStoreValue.ownership)
            let values = AppStoreTransaction.values(
                type: members.text("expires_date_ms") == nil ? .nonConsumable : .autoRenewable, purchased: purchased,
                expires: expires, revoked: revoked, ownership: ownership, environment: environment)
            return .transaction(
                AppStoreTransaction(
                    line: row.line, texts: texts, values: values, appTransactionID: nil,
                    appAccountToken: members.text("app_account_token"), signedDate: signedDate, trust: .unsigned))
        } catch {
            return .rejected(line: row.line, reason: error.reason)
        }
    }

    /// A receipt's app-level fields as its customer, or the receipt refused with the first
    /// member that cannot be read.
    private static func customer(
        _ receipt: JSONValue.Located, id: String, owner: String?, environment: Environment, signedDate: Instant?
    ) -> AppStoreRecord {
        let members = AppStoreMembers(receipt)
        do throws(AppStoreMembers.Problem) {
            return .customer(
                AppStoreCustomer(
                    line: receipt.line, id: id, platform: nil,
                    originalAppVersion: members.text("original_application_version"),
                    originalPurchaseDate: try members.instant("original_purchase_date_ms"),
                    preorderDate: try members.instant("preorder_date_ms"), environment: environment,
                    appTransactionID: nil, receiptOwnerTransactionID: owner, signedDate: signedDate, trust: .unsigned))
        } catch {
            return .rejected(line: receipt.line, reason: error.reason)
        }
    }

    /// A receipt's environment as a value: production when it names none, as for a canonical
    /// row; `nil` for one the App Store does not document.
    static func environment(_ name: String?) -> Environment? {
        guard let name else { return .production }
        return Environment(rawValue: name)
    }

    /// The canonical environment of a receipt: sandbox when the body or the `receipt_type`
    /// (`ProductionSandbox`, `ProductionVPPSandbox`) says so, else production when either says
    /// Production; an unknown value stays as written.
    static func receiptEnvironment(_ environment: String?, receiptType: String?) -> String? {
        if environment == "Sandbox" || receiptType?.hasSuffix("Sandbox") == true { return "sandbox" }
        if let environment { return AppStoreValue.environment(environment) }
        if let receiptType { return receiptType.hasPrefix("Production") ? "production" : receiptType }
        return nil
    }
}

/// verifyReceipt's `status` codes (FORMATS.md §5).
enum ReceiptStatus {
    /// The rejection reason for a status other than 0.
    static func reason(_ status: String, retryable: JSONValue.Located?) -> String {
        guard let code = Int(status) else { return "verifyReceipt status \"\(Excerpt.of(status))\" is not a number" }
        return "verifyReceipt status \(code): " + meaning(code, retryable: retryable?.text)
    }

    /// What a status means.
    static func meaning(_ code: Int, retryable: String?) -> String {
        switch code {
        case 21000: return "the request was not a POST or its JSON was unreadable"
        case 21001: return "a status the App Store no longer sends"
        case 21002: return "the receipt data was malformed or the service had a temporary issue"
        case 21003: return "the receipt could not be authenticated"
        case 21004: return "the shared secret does not match the account's"
        case 21005: return "the receipt server was unavailable"
        case 21006: return "the receipt is valid but the subscription has expired (iOS 6-style receipts only)"
        case 21007: return "a sandbox receipt was sent to production: verify it against the sandbox"
        case 21008: return "a production receipt was sent to the sandbox: verify it against production"
        case 21009: return "internal data access error"
        case 21010: return "the user account cannot be found or has been deleted"
        case 21100...21199:
            return "internal data access error" + (retryable.map { " (is-retryable: \($0))" } ?? "")
        default: return "unknown status \(code)"
        }
    }
}
