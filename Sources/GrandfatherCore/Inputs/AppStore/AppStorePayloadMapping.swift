import GrandfatherEngine

/// Maps decoded App Store payloads (the JSON inside a JWS, or the same object written out
/// decoded) onto Grandfather's records, field by field, each value typed as it is read.
enum AppStorePayloadMapping {
    /// What a payload is, told by its keys.
    enum Kind: Sendable, Equatable {
        case transaction, renewalInfo, appTransaction, notification

        /// The kind's name in reasons.
        var name: String {
            switch self {
            case .transaction: return "transaction"
            case .renewalInfo: return "renewal info"
            case .appTransaction: return "app transaction"
            case .notification: return "notification"
            }
        }

        /// The kind's name with its article, in reasons.
        var described: String {
            switch self {
            case .transaction: return "a transaction"
            case .renewalInfo: return "renewal info"
            case .appTransaction: return "an app transaction"
            case .notification: return "a notification"
            }
        }

        /// The kind told by a payload's keys, else `nil`: `notificationType` a notification,
        /// `transactionId` a transaction, `autoRenewStatus`/`autoRenewProductId` renewal info,
        /// `originalApplicationVersion`/`receiptType`/`appTransactionId` an app transaction.
        init?(keysOf payload: JSONValue.Located) {
            let keys = Set(payload.keys)
            if keys.contains("notificationType") {
                self = .notification
            } else if keys.contains("transactionId") {
                self = .transaction
            } else if keys.contains("autoRenewStatus") || keys.contains("autoRenewProductId") {
                self = .renewalInfo
            } else if !keys.isDisjoint(with: ["originalApplicationVersion", "receiptType", "appTransactionId"]) {
                self = .appTransaction
            } else {
                return nil
            }
        }
    }

    /// The instant a payload was signed, which verification validates the chain at:
    /// `signedDate`, or an app transaction's `receiptCreationDate`.
    static func signedDate(_ payload: JSONValue.Located, kind: Kind) -> Instant? {
        AppStoreValue.instant(payload[signedDateKey(kind)])
    }

    /// The member that holds a payload's signing instant.
    static func signedDateKey(_ kind: Kind) -> String {
        kind == .appTransaction ? "receiptCreationDate" : "signedDate"
    }

    /// The environment a payload names as written: `environment`, an app transaction's
    /// `receiptType`, a notification's `data`/`summary`/`appData` environment, or an external
    /// purchase token's (`SANDBOX` prefix: Sandbox, else Production).
    static func environment(_ payload: JSONValue.Located, kind: Kind) -> String? {
        switch kind {
        case .transaction, .renewalInfo: return payload["environment"]?.string
        case .appTransaction: return payload["receiptType"]?.string
        case .notification:
            for key in ["data", "summary", "appData"] {
                if let environment = payload[key]?["environment"]?.string { return environment }
            }
            if let token = payload["externalPurchaseToken"]?["externalPurchaseId"]?.string {
                return token.hasPrefix("SANDBOX") ? "Sandbox" : "Production"
            }
            return nil
        }
    }

    /// The bundle ID a payload names; renewal info names none.
    static func bundleID(_ payload: JSONValue.Located, kind: Kind) -> String? {
        switch kind {
        case .transaction, .appTransaction: return payload["bundleId"]?.string
        case .renewalInfo: return nil
        case .notification:
            for key in ["data", "summary", "appData", "externalPurchaseToken"] {
                if let bundleID = payload[key]?["bundleId"]?.string { return bundleID }
            }
            return nil
        }
    }

    /// A JWSTransactionDecodedPayload as a transaction (`customer_id` left to the linker), or
    /// the row refused with the first member that cannot be read.
    static func transaction(
        _ payload: JSONValue.Located, line: Int, trust: AppStoreTrust, sandbox: Bool
    ) -> AppStoreRecord {
        let members = AppStoreMembers(payload)
        do throws(AppStoreMembers.Problem) {
            var texts = try members.identity(
                transactionID: "transactionId", originalTransactionID: "originalTransactionId", productID: "productId")
            guard let type: ProductType = try members.value("type", spelling: AppStoreValue.productType) else {
                throw AppStoreMembers.Problem(reason: "missing required field type")
            }
            let purchased = try members.requiredInstant("purchaseDate")
            let expires = try members.instant("expiresDate")
            let revoked = try members.instant("revocationDate")
            let ownership: OwnershipType? = try members.value("inAppOwnershipType", spelling: AppStoreValue.ownership)
            let environment: Environment? =
                sandbox ? .sandbox : try members.value("environment", spelling: AppStoreValue.environment)
            texts[.price] = try members.price("price")
            texts[.currency] = members.text("currency")
            let values = AppStoreTransaction.values(
                type: type, purchased: purchased, expires: expires, revoked: revoked, ownership: ownership,
                environment: environment ?? .production)
            return .transaction(
                AppStoreTransaction(
                    line: line, texts: texts, values: values, appTransactionID: members.text("appTransactionId"),
                    appAccountToken: members.text("appAccountToken"),
                    signedDate: signedDate(payload, kind: .transaction), trust: trust))
        } catch {
            return .rejected(line: line, reason: error.reason)
        }
    }

    /// A JWSRenewalInfoDecodedPayload as a renewal. `status` (from a status entry or a
    /// notification's `data.status`) decides the state; without it, or when it is not a
    /// documented status, the payload's own flags do
    /// (see `renewalState(retrying:graceEnds:expirationIntent:)`).
    /// - Returns: the renewal, or `.rejected` when no `originalTransactionId` names the
    ///   subscription or its grace period's end cannot be read.
    static func renewal(
        _ payload: JSONValue.Located, line: Int, status: String?, originalTransactionID: String?, trust: AppStoreTrust
    ) -> AppStoreRecord {
        guard let subscription = payload["originalTransactionId"]?.text ?? originalTransactionID else {
            return .rejected(line: line, reason: "renewal info names no originalTransactionId")
        }
        let graceEnds: Instant?
        do throws(AppStoreMembers.Problem) {
            graceEnds = try AppStoreMembers(payload).instant("gracePeriodExpiresDate")
        } catch {
            return .rejected(line: line, reason: error.reason)
        }
        let state =
            status.flatMap(AppStoreValue.renewalState(status:))
            ?? renewalState(
                retrying: payload["isInBillingRetryPeriod"]?.text, graceEnds: graceEnds,
                expirationIntent: payload["expirationIntent"]?.text)
        return .renewal(
            AppStoreRenewal(
                line: line, originalTransactionID: subscription, renewalState: state,
                gracePeriodExpiresDate: graceEnds, signedDate: signedDate(payload, kind: .renewalInfo), trust: trust))
    }

    /// The state renewal flags tell when no status does (renewal info alone, a receipt's
    /// `pending_renewal_info`): a grace-period end means in grace period, a billing retry
    /// means in billing retry, an expiration intent means expired; otherwise `nil`, since
    /// auto-renew on or off says nothing about whether the period has ended.
    static func renewalState(retrying: String?, graceEnds: Instant?, expirationIntent: String?) -> RenewalState? {
        if graceEnds != nil { return .inGracePeriod }
        if retrying == "1" || retrying == "true" { return .inBillingRetry }
        if let expirationIntent, !expirationIntent.isEmpty { return .expired }
        return nil
    }

    /// An app transaction as a customer: its id is the `appTransactionId` (the linker may
    /// rename it); no storefront; no platform without `originalPlatform`. Or the row
    /// refused with the first member that cannot be read.
    static func customer(_ payload: JSONValue.Located, line: Int, trust: AppStoreTrust, sandbox: Bool)
        -> AppStoreRecord
    {
        let members = AppStoreMembers(payload)
        do throws(AppStoreMembers.Problem) {
            let appTransactionID = members.text("appTransactionId")
            let platform: Platform? = try members.value("originalPlatform", spelling: AppStoreValue.platform)
            let environment: Environment? =
                sandbox ? .sandbox : try members.value("receiptType", spelling: AppStoreValue.environment)
            return .customer(
                AppStoreCustomer(
                    line: line, id: appTransactionID, platform: platform,
                    originalAppVersion: members.text("originalApplicationVersion"),
                    originalPurchaseDate: try members.instant("originalPurchaseDate"),
                    preorderDate: try members.instant("preorderDate"), environment: environment ?? .production,
                    appTransactionID: appTransactionID, receiptOwnerTransactionID: nil,
                    signedDate: signedDate(payload, kind: .appTransaction), trust: trust))
        } catch {
            return .rejected(line: line, reason: error.reason)
        }
    }
}
