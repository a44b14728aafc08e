import Foundation
import GrandfatherEngine

/// Which App Store export a file holds. Object shapes may come as one JSON object, as JSON
/// Lines, or as a JSON array of such objects; the reader takes all three.
enum AppStoreShape: String, Equatable, Sendable, CaseIterable {
    /// Text: one compact JWS a line (transactions, renewal info, app transactions or
    /// notifications, told apart by their payload's keys).
    case jwsLines = "jws-lines"
    /// A JSON array of compact JWS strings.
    case jwsArray = "jws-array"
    /// Notifications V2 bodies: `{"signedPayload": JWS}`.
    case notificationBodies = "notification-bodies"
    /// Get Notification History: `{"notificationHistory": [{"signedPayload": JWS}]}`.
    case notificationHistory = "notification-history"
    /// Transaction history, refund history or order lookup: `{"signedTransactions": [JWS]}`.
    case signedTransactionList = "signed-transaction-list"
    /// Get Transaction Info: `{"signedTransactionInfo": JWS}` (also a bare notification `data`).
    case transactionInfoResponse = "transaction-info-response"
    /// Get All Subscription Statuses: `{"data": [{"lastTransactions": [...]}]}`.
    case subscriptionStatuses = "subscription-statuses"
    /// Get App Transaction Info: `{"signedAppTransactionInfo": JWS}` (also a notification's `appData`).
    case appTransactionInfoResponse = "app-transaction-info-response"
    /// Decoded JWSTransactionDecodedPayload objects (`transactionId`, `productId`…).
    case decodedTransactions = "decoded-transactions"
    /// Decoded JWSRenewalInfoDecodedPayload objects (`autoRenewStatus`, `autoRenewProductId`).
    case decodedRenewalInfo = "decoded-renewal-info"
    /// Decoded app transactions (`originalApplicationVersion`, `receiptType`, `appTransactionId`).
    case decodedAppTransactions = "decoded-app-transactions"
    /// Decoded Notifications V2 payloads (`notificationType`).
    case decodedNotifications = "decoded-notifications"
    /// verifyReceipt response bodies (`status`, `receipt`, `latest_receipt_info`…).
    case receipts = "verify-receipt-responses"
    /// verifyReceipt bodies named by customer: `{"customer_id": …, "response": {…}}`.
    case wrappedReceipts = "wrapped-verify-receipt-responses"
    /// Notifications V1 (`notification_type`, `unified_receipt`).
    case v1Notifications = "v1-notifications"
}

/// What recognition concluded about an App Store file.
enum AppStoreRecognition: Equatable, Sendable {
    /// App Store records of this shape.
    case appStore(AppStoreShape)
    /// Not records at all; a one-line description of what the file is.
    case notRecords(String)
}

/// Tells App Store files from the first bytes of a file, before the canonical CSV/JSON
/// recognition: cheap, exact checks on the first object's keys or the first bytes, so that
/// a canonical file (snake_case `customer_id`, `transaction_id`…) is never taken for one.
enum AppStoreRecognizer {
    /// Recognizes a file from its first bytes (up to a few MiB, or the whole file).
    /// - Returns: the App Store shape, `.notRecords` for a file that holds no records (a
    ///   certificate, an app receipt, an API error body…), or `nil` for "not App Store".
    static func recognize(_ prefix: [UInt8]) -> AppStoreRecognition? {
        guard let first = prefix.first else { return nil }
        if first == 0x30, prefix.count > 1, prefix[1] & 0x80 != 0 {
            return .notRecords(describeDER(Array(prefix.prefix(64)), encoding: "DER"))
        }
        var start = 0
        if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < prefix.count, isSpace(prefix[start]) { start += 1 }
        switch prefix[start...].first {
        case UInt8(ascii: "{"), UInt8(ascii: "["): return recognizeJSON(prefix, from: start)
        case UInt8(ascii: "-"):
            let text = prefix[start...]
            if text.starts(with: "-----BEGIN CERTIFICATE".utf8) { return .notRecords("a PEM certificate, not records") }
            if text.starts(with: "-----BEGIN ".utf8) { return .notRecords("a PEM block, not records") }
            return nil
        case .some: return recognizeText(prefix[start...])
        case nil: return nil
        }
    }

    // MARK: - JSON

    private static func recognizeJSON(_ prefix: [UInt8], from start: Int) -> AppStoreRecognition? {
        JSONParser.parsing(prefix, start: start) { parser in
            if parser.consume(UInt8(ascii: "[")) {
                parser.skipWhitespace()
                if parser.current == UInt8(ascii: "\"") {
                    return prefix[(parser.index + 1)...].starts(with: "eyJ".utf8) ? .appStore(.jwsArray) : nil
                }
                guard parser.current == UInt8(ascii: "{") else { return nil }
            }
            return classify(firstObjectMembers(&parser))
        }
    }

    /// The members of the object at the parser, as far as they can be read: a member whose
    /// value is cut off by the end of the prefix (or is malformed) keeps its key, value `nil`.
    private static func firstObjectMembers(_ parser: inout JSONParser) -> [(key: String, value: JSONValue?)] {
        var members: [(key: String, value: JSONValue?)] = []
        guard parser.consume(UInt8(ascii: "{")) else { return members }
        while true {
            parser.skipWhitespace()
            guard parser.current == UInt8(ascii: "\""), let key = try? parser.parseString(),
                parser.consume(UInt8(ascii: ":"))
            else { return members }
            guard let value = try? parser.parseValue() else {
                members.append((key, nil))
                return members
            }
            members.append((key, value))
            guard parser.consume(UInt8(ascii: ",")) else { return members }
        }
    }

    /// Decides the shape from an object's members (a `nil` value: cut off); `nil` when none
    /// fits. The reader applies it to every element too.
    static func classify(_ members: [(key: String, value: JSONValue?)]) -> AppStoreRecognition? {
        let keys = Set(members.map(\.key))
        func value(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        /// The member is there, and is of `type` or cut off.
        func has(_ key: String, _ type: String) -> Bool {
            keys.contains(key) && (value(key).map { $0.typeName == type } ?? true)
        }
        if keys.contains("errorCode"), keys.contains("errorMessage") {
            return .notRecords(describeErrorBody(code: value("errorCode"), message: value("errorMessage")))
        }
        if keys.contains("signedPayload") { return .appStore(.notificationBodies) }
        if has("notificationHistory", "array") { return .appStore(.notificationHistory) }
        if has("signedTransactions", "array") { return .appStore(.signedTransactionList) }
        if keys.contains("notificationType") { return .appStore(.decodedNotifications) }
        if keys.contains("signedTransactionInfo") { return .appStore(.transactionInfoResponse) }
        if keys.contains("signedAppTransactionInfo") { return .appStore(.appTransactionInfoResponse) }
        if has("data", "array") { return .appStore(.subscriptionStatuses) }
        if keys.contains("transactionId") { return .appStore(.decodedTransactions) }
        if keys.contains("autoRenewStatus") || keys.contains("autoRenewProductId") {
            return .appStore(.decodedRenewalInfo)
        }
        if !keys.isDisjoint(with: ["originalApplicationVersion", "receiptType", "appTransactionId"]) {
            return .appStore(.decodedAppTransactions)
        }
        if has("response", "object") { return .appStore(.wrappedReceipts) }
        if keys.contains("notification_type") || has("unified_receipt", "object") {
            return .appStore(.v1Notifications)
        }
        if isReceiptBody(keys) { return .appStore(.receipts) }
        if keys.isSuperset(of: ["originalTransactionId", "effectiveDate", "success"]) {
            return .notRecords("an Extend Subscription Renewal Date response, not records")
        }
        return nil
    }

    /// A verifyReceipt body: `status` with its receipt fields, or a bare `{"status": 21002}`;
    /// or, without `status`, a body's own fields (`status` often comes last, past a prefix
    /// cut inside a large `receipt`).
    private static func isReceiptBody(_ keys: Set<String>) -> Bool {
        if keys.contains("status") {
            let statusKeys: Set = [
                "receipt", "latest_receipt_info", "latest_receipt", "pending_renewal_info", "is-retryable",
                "is_retryable",
            ]
            return !keys.isDisjoint(with: statusKeys) || keys.isSubset(of: ["status", "environment"])
        }
        return !keys.isDisjoint(with: ["receipt", "latest_receipt_info", "pending_renewal_info"])
    }

    private static func describeErrorBody(code: JSONValue?, message: JSONValue?) -> String {
        var detail = ""
        if case .number(let number) = code { detail = " " + number }
        if case .string(let text) = message { detail += " \"" + Excerpt.of(text) + "\"" }
        return "an App Store Server API error body (errorCode\(detail)), not records"
    }

    // MARK: - Text

    /// A JWS a line, or base64 that is not records.
    private static func recognizeText(_ text: ArraySlice<UInt8>) -> AppStoreRecognition? {
        let firstLine = text.prefix { $0 != 0x0A && $0 != 0x0D }
        // A JWS header is short: its first dot comes early even in a cut prefix. Base64 of
        // JSON (also `eyJ`) has no dot.
        if firstLine.starts(with: "eyJ".utf8), firstLine.contains(UInt8(ascii: ".")) {
            return .appStore(.jwsLines)
        }
        let base64Alphabet = { (byte: UInt8) in isBase64(byte) || isSpace(byte) }
        guard firstLine.count >= 16, firstLine.allSatisfy(isBase64), text.allSatisfy(base64Alphabet) else {
            return nil
        }
        // Decode a head whose length is a multiple of 4 (all of it when it is short).
        let head = Array(text.lazy.filter { !isSpace($0) }.prefix(4096))
        let usable = head.count - head.count % 4
        guard usable >= 16, let decoded = Data(base64Encoded: Data(head[..<usable])).map(Array.init) else {
            return .notRecords("an unrecognized base64 blob, not records")
        }
        if decoded.first == 0x30 { return .notRecords(describeDER(decoded, encoding: "base64")) }
        let decodedText = String(decoding: decoded.prefix(512), as: UTF8.self)
        if decodedText.contains("\"purchase-info\"") {
            return .notRecords(
                "a legacy iOS 6 transaction receipt (base64 \"purchase-info\" plist), not records")
        }
        if decoded.first == UInt8(ascii: "{") || decoded.first == UInt8(ascii: "[") {
            return .notRecords("base64-encoded JSON, not records: decode it first")
        }
        return .notRecords("an unrecognized base64 blob, not records")
    }

    // MARK: - DER

    /// What a DER (ASN.1) value is: a PKCS#7 app receipt, an X.509 certificate, or other.
    static func describeDER(_ bytes: [UInt8], encoding: String) -> String {
        let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        guard let inner = headerLength(bytes, at: 0), inner <= bytes.count else {
            return "\(encoding) ASN.1 data, not records"
        }
        let content = bytes[inner...]
        if content.starts(with: signedDataOID) {
            return "a \(encoding) PKCS#7 app receipt, not records: send it to the App Store Server API or use its "
                + "transactions"
        }
        if content.first == 0x30, let tbs = headerLength(bytes, at: inner), inner + tbs <= bytes.count,
            bytes[(inner + tbs)...].starts(with: [0xA0, 0x03, 0x02, 0x01])
        {
            return "a \(encoding) X.509 certificate, not records"
        }
        return "\(encoding) ASN.1 data, not records"
    }

    /// The length of the tag and length octets of the SEQUENCE at `offset`, else `nil`.
    private static func headerLength(_ bytes: [UInt8], at offset: Int) -> Int? {
        guard offset + 1 < bytes.count, bytes[offset] == 0x30 else { return nil }
        let length = bytes[offset + 1]
        if length <= 0x80 { return 2 }
        let count = Int(length & 0x7F)
        return count <= 4 ? 2 + count : nil
    }

    private static func isBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
            return true
        default: return false
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
