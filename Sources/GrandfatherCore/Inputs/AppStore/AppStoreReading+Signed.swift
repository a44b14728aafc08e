import GrandfatherEngine

/// Signed data: each JWS is parsed, its payload decoded, its signature checked, the policy's
/// bundle and environment applied, and its payload mapped; nested JWS are checked too.
extension AppStoreReading {
    /// A JWS whose signature was accepted.
    struct Opened {
        var payload: JSONValue.Located
        var trust: AppStoreTrust
        /// Self-signed (Xcode, LocalTesting): read only as sandbox.
        var selfSigned: Bool
    }

    /// Why a JWS was not accepted.
    struct Refusal: Error {
        var reason: String
    }

    /// The notification types FORMATS.md §4 lists; any other is counted as unknown.
    static let knownNotificationTypes: Set<String> = [
        "SUBSCRIBED", "DID_RENEW", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS", "OFFER_REDEEMED",
        "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "EXPIRED", "PRICE_INCREASE", "REFUND", "REFUND_DECLINED",
        "REFUND_REVERSED", "CONSUMPTION_REQUEST", "REVOKE", "RENEWAL_EXTENDED", "RENEWAL_EXTENSION", "TEST",
        "EXTERNAL_PURCHASE_TOKEN", "ONE_TIME_CHARGE", "RESCIND_CONSENT", "METADATA_UPDATE", "MIGRATION",
        "PRICE_CHANGE",
    ]

    /// Reads one JWS at `line`; `role` is its kind when the container says (else its keys
    /// do); `status` and `subscription` come from a status entry, for renewal info.
    mutating func readSigned(
        _ text: String, line: Int, role: AppStorePayloadMapping.Kind?, status: String? = nil,
        subscription: String? = nil
    ) {
        do throws(Refusal) {
            let (kind, opened) = try open(text, line: line, role: role)
            readPayload(
                opened.payload, kind: kind, line: line, trust: opened.trust, sandbox: opened.selfSigned,
                status: status, subscription: subscription)
        } catch {
            reject(line, error.reason)
        }
    }

    /// Reads `object[key]`, which must be a JWS string.
    mutating func readSignedMember(
        _ object: JSONValue.Located, _ key: String, role: AppStorePayloadMapping.Kind, status: String? = nil,
        subscription: String? = nil
    ) {
        guard let value = object[key] else { return reject(object.line, "\(key) is missing") }
        guard let text = value.string else { return reject(value.line, "\(key) is \(value.typeName), not a JWS") }
        readSigned(text, line: value.line, role: role, status: status, subscription: subscription)
    }

    /// Parses and checks a JWS. A notification's type is counted here, before the check.
    private mutating func open(
        _ text: String, line: Int, role: AppStorePayloadMapping.Kind?
    ) throws(Refusal) -> (AppStorePayloadMapping.Kind, Opened) {
        let jws: CompactJWS
        let value: JSONValue
        do throws(CompactJWS.FormatError) {
            jws = try CompactJWS.parse(text)
            value = try jws.payloadJSON()
        } catch {
            throw Refusal(reason: error.reason)
        }
        guard value.members != nil else { throw Refusal(reason: "JWS payload is a \(value.typeName), not an object") }
        let payload = JSONValue.Located(value, pinnedAt: line)
        let ownKind = AppStorePayloadMapping.Kind(keysOf: payload)
        if let role, let ownKind, ownKind != role {
            throw Refusal(reason: "JWS payload is \(ownKind.described), not \(role.described)")
        }
        guard let kind = role ?? ownKind else {
            // The signature is still checked, so the reason says whether the content is Apple's.
            let signedAt = AppStorePayloadMapping.signedDate(payload, kind: .transaction)
            let signature: String
            switch checker.check(jws, signedAt: signedAt) {
            case .verified: signature = "its signature verifies, but "
            case .unchecked: signature = ""
            case .refused(let reason): throw Refusal(reason: reason)
            }
            let keys = payload.keys.isEmpty ? "none" : Excerpt.of(payload.keys.joined(separator: ", "))
            throw Refusal(
                reason: signature
                    + "the JWS payload is not a transaction, renewal info, app transaction or notification (keys: \(keys))"
            )
        }
        if kind == .notification { count(notification: payload) }
        let signedKey = AppStorePayloadMapping.signedDateKey(kind)
        if let problem = AppStoreValue.dateProblem(payload[signedKey], named: signedKey) {
            throw Refusal(reason: problem)
        }
        var signedAt = AppStorePayloadMapping.signedDate(payload, kind: kind)
        if signedAt == nil, kind == .notification, let inner = payload["data"]?["signedTransactionInfo"]?.string {
            signedAt = (try? CompactJWS.parse(inner).payloadJSON()).flatMap {
                AppStorePayloadMapping.signedDate(JSONValue.Located($0, pinnedAt: line), kind: .transaction)
            }
        }
        switch checker.check(jws, signedAt: signedAt) {
        case .verified: return (kind, Opened(payload: payload, trust: .verified, selfSigned: false))
        case .unchecked: return (kind, Opened(payload: payload, trust: .unchecked, selfSigned: false))
        case .refused(let reason):
            // Only now, with the signature refused, may the payload's claim to be Xcode or
            // LocalTesting data be heard, and only when the user asked for such data: it is
            // then read as unverified sandbox data, which never outranks a verified record.
            guard let claim = Self.selfSignedClaim(payload, kind: kind) else { throw Refusal(reason: reason) }
            guard options.acceptSelfSigned else {
                throw Refusal(
                    reason: reason
                        + "; the payload says \(claim), whose data is self-signed: read only with --accept-self-signed or apple.environment \"\(claim)\""
                )
            }
            return (kind, Opened(payload: payload, trust: .selfSigned, selfSigned: true))
        }
    }

    /// `Xcode` or `LocalTesting` when the payload names one of those as its environment (an
    /// app transaction: its `receiptType`), else `nil`. Unverified: used only to word a
    /// refusal, or to read a refused payload as sandbox when the user asked for that.
    static func selfSignedClaim(_ payload: JSONValue.Located, kind: AppStorePayloadMapping.Kind) -> String? {
        let claim = AppStorePayloadMapping.environment(payload, kind: kind)
        return claim == "Xcode" || claim == "LocalTesting" ? claim : nil
    }

    /// Counts a notification's type (`TYPE/SUBTYPE`), and apart if the type is unknown.
    mutating func count(notification payload: JSONValue.Located) {
        let type = payload["notificationType"]?.text ?? "(none)"
        let key = payload["subtype"]?.text.map { type + "/" + $0 } ?? type
        contents.notificationTypes[key, default: 0] += 1
        if !Self.knownNotificationTypes.contains(type) { contents.unknownNotificationTypes[key, default: 0] += 1 }
    }

    /// A decoded payload object (no signature): read as `unsigned` with `--trust-decoded`.
    mutating func readDecoded(_ object: JSONValue.Located) {
        guard let kind = AppStorePayloadMapping.Kind(keysOf: object) else {
            return reject(
                object.line, "object is not a decoded transaction, renewal info, app transaction or notification")
        }
        if kind == .notification { count(notification: object) }
        guard options.trustDecoded else {
            return reject(object.line, "unsigned decoded \(kind.name): read only with --trust-decoded")
        }
        let signedKey = AppStorePayloadMapping.signedDateKey(kind)
        if let problem = AppStoreValue.dateProblem(object[signedKey], named: signedKey) {
            return reject(object.line, problem)
        }
        readPayload(object, kind: kind, line: object.line, trust: .unsigned, sandbox: false)
    }

    /// Maps an accepted payload into rows, after the policy's bundle and environment checks.
    private mutating func readPayload(
        _ payload: JSONValue.Located, kind: AppStorePayloadMapping.Kind, line: Int, trust: AppStoreTrust, sandbox: Bool,
        status: String? = nil, subscription: String? = nil
    ) {
        let environmentKey = kind == .appTransaction ? "receiptType" : "environment"
        var environment: String?
        var described = "no \(environmentKey)"
        let raw = AppStorePayloadMapping.environment(payload, kind: kind)
        if let raw {
            environment = AppStoreValue.environment(raw)
            described = "\(environmentKey) \"\(Excerpt.of(raw))\""
        }
        if sandbox, environment != "sandbox" {
            environment = "sandbox"
            described += " (self-signed: read as sandbox)"
        }
        let bundle =
            kind == .renewalInfo ? nil : (key: "bundleId", value: AppStorePayloadMapping.bundleID(payload, kind: kind))
        if let problem = admissionProblem(bundle: bundle, environment: environment, described: described) {
            return reject(line, problem)
        }
        switch kind {
        case .transaction:
            emit(AppStorePayloadMapping.transaction(payload, line: line, trust: trust, sandbox: sandbox))
        case .renewalInfo:
            emit(
                AppStorePayloadMapping.renewal(
                    payload, line: line, status: status, originalTransactionID: subscription, trust: trust))
        case .appTransaction:
            emit(AppStorePayloadMapping.customer(payload, line: line, trust: trust, sandbox: sandbox))
        case .notification: readNotification(payload, line: line, trust: trust, sandbox: sandbox)
        }
    }

    /// The policy's objection to a payload, else `nil`.
    /// - Parameters:
    ///   - bundle: the payload's bundle field and value; `nil` when its kind names no bundle
    ///     (renewal info), so that only the environment is checked.
    ///   - environment: the payload's canonical environment (`production`, `sandbox`).
    ///   - described: the environment as the payload wrote it, for the reason (`environment
    ///     "Sandbox"`, or `no environment` when `environment` is `nil`).
    func admissionProblem(bundle: (key: String, value: String?)?, environment: String?, described: String) -> String? {
        if let expected = options.bundleID, let bundle, bundle.value != expected {
            guard let value = bundle.value else {
                return "bundle mismatch: no \(bundle.key), apple.bundle_id is \"\(expected)\""
            }
            return "bundle mismatch: \(bundle.key) \"\(Excerpt.of(value))\" is not apple.bundle_id \"\(expected)\""
        }
        if let expected = options.environment, environment != AppStoreValue.environment(expected) {
            guard environment != nil else {
                return "environment mismatch: \(described), apple.environment is \"\(expected)\""
            }
            return "environment mismatch: \(described) is not apple.environment \"\(expected)\""
        }
        return nil
    }

    /// A notification's rows: its transaction and renewal info, its app transaction, or one
    /// noted row when it carries none.
    private mutating func readNotification(_ payload: JSONValue.Located, line: Int, trust: AppStoreTrust, sandbox: Bool)
    {
        let type = payload["notificationType"]?.text ?? "(none)"
        if let data = payload["data"], data.isObject {
            let keys = Set(data.keys)
            if keys.contains("signedTransactionInfo") {
                readNested(
                    data, "signedTransactionInfo", role: .transaction, line: line, trust: trust, sandbox: sandbox)
            }
            if keys.contains("signedRenewalInfo") {
                readNested(
                    data, "signedRenewalInfo", role: .renewalInfo, line: line, trust: trust, sandbox: sandbox,
                    status: data["status"]?.text)
            }
            if keys.isDisjoint(with: ["signedTransactionInfo", "signedRenewalInfo"]) {
                emit(.noted(line: line, note: "\(type) notification carries no transaction"))
            }
        } else if let appData = payload["appData"], appData.isObject, appData["signedAppTransactionInfo"] != nil {
            readNested(
                appData, "signedAppTransactionInfo", role: .appTransaction, line: line, trust: trust, sandbox: sandbox)
        } else if payload["summary"] != nil {
            emit(.noted(line: line, note: "\(type) notification carries a summary, no customer record"))
        } else if payload["externalPurchaseToken"] != nil {
            emit(
                .noted(
                    line: line, note: "\(type) notification carries an external purchase token, not an in-app purchase")
            )
        } else {
            emit(.noted(line: line, note: "\(type) notification carries no transaction"))
        }
    }

    /// A JWS inside a notification: checked on its own; its rows take the weaker trust of
    /// the two, and sandbox if either is self-signed. A failure names the field.
    private mutating func readNested(
        _ object: JSONValue.Located, _ key: String, role: AppStorePayloadMapping.Kind, line: Int, trust: AppStoreTrust,
        sandbox: Bool, status: String? = nil
    ) {
        guard let text = object[key]?.string else {
            return reject(line, "\(key) is \(object[key]?.typeName ?? "missing"), not a JWS")
        }
        do throws(Refusal) {
            let (kind, opened) = try open(text, line: line, role: role)
            readPayload(
                opened.payload, kind: kind, line: line, trust: max(trust, opened.trust),
                sandbox: sandbox || opened.selfSigned, status: status)
        } catch {
            reject(line, "\(key): \(error.reason)")
        }
    }

    /// A status entry (`lastTransactions[]`) or a transaction info response: its transaction
    /// and its renewal info, the renewal's state from the entry's `status`.
    mutating func readStatusEntry(_ entry: JSONValue.Located) {
        let keys = Set(entry.keys)
        guard !keys.isDisjoint(with: ["signedTransactionInfo", "signedRenewalInfo"]) else {
            return reject(entry.line, "status entry carries neither signedTransactionInfo nor signedRenewalInfo")
        }
        if keys.contains("signedTransactionInfo") {
            readSignedMember(entry, "signedTransactionInfo", role: .transaction)
        }
        if keys.contains("signedRenewalInfo") {
            readSignedMember(
                entry, "signedRenewalInfo", role: .renewalInfo, status: entry["status"]?.text,
                subscription: entry["originalTransactionId"]?.text)
        }
    }
}
