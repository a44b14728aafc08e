import Foundation

/// The grants a team would make in RevenueCat before the switch (issue 16): for every
/// customer flagged `grandfathered_not_granted`, each of the policy's
/// `grandfathered_entitlements`, for life. Written, never sent: `grants.csv` for people, and
/// `grants.jsonl`, one request of RevenueCat's REST API v1 a line ("Grant an Entitlement",
/// `POST /v1/subscribers/{app_user_id}/entitlements/{entitlement_identifier}/promotional`),
/// for a script the team runs with its own secret key.
public enum GrantsFiles {
    public static let columns = ["customer_id", "entitlement", "duration"]

    /// The grants, customers in id order, entitlements in the policy's order.
    static func grants(_ audit: Audit) -> [(customer: String, entitlement: String)] {
        var grants: [(String, String)] = []
        audit.customers.forEachVerdict { record, verdict, _ in
            guard verdict.flags.contains(.grandfatheredNotGranted) else { return }
            for entitlement in audit.policy.grandfatheredEntitlements { grants.append((record.id, entitlement)) }
        }
        return grants
    }

    /// `grants.csv`.
    public static func csv(_ audit: Audit) -> [UInt8] {
        var csv = CSVText()
        csv.row(columns)
        for grant in grants(audit) { csv.row([grant.customer, grant.entitlement, "lifetime"]) }
        return csv.bytes
    }

    /// `grants.jsonl`: `{"body":{"duration":"lifetime"},"method":"POST","path":…}` a line,
    /// with the customer and entitlement beside the request for reading.
    public static func jsonLines(_ audit: Audit) throws(GrandfatherError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes: [UInt8] = []
        for grant in grants(audit) {
            let request = Request(
                method: "POST",
                path: "/v1/subscribers/\(pathSegment(grant.customer))/entitlements/"
                    + "\(pathSegment(grant.entitlement))/promotional",
                body: .init(duration: "lifetime"), appUserID: grant.customer, entitlement: grant.entitlement)
            do {
                bytes.append(contentsOf: try encoder.encode(request))
            } catch {
                throw .internal("cannot encode a grant: \(error)")
            }
            bytes.append(0x0A)
        }
        return bytes
    }

    /// A path segment, every byte but RFC 3986's unreserved ones percent-encoded: app user
    /// ids hold `$`, `:` and anything a team chose. An id that is only dots has them encoded
    /// too: `.` and `..` are dot-segments, which a client removes (RFC 3986 §5.2.4), so that
    /// the request would name another path.
    static func pathSegment(_ text: String) -> String {
        if text == "." || text == ".." { return String(repeating: "%2E", count: text.count) }
        var segment = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                segment.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                segment += String(format: "%%%02X", byte)
            }
        }
        return segment
    }

    private struct Request: Encodable {
        struct Body: Encodable {
            var duration: String
        }
        var method: String
        var path: String
        var body: Body
        var appUserID: String
        var entitlement: String

        enum CodingKeys: String, CodingKey {
            case method, path, body, entitlement
            case appUserID = "app_user_id"
        }
    }
}
