import GrandfatherEngine

extension InputFormat {
    /// RevenueCat webhook events (`{"event": …, "api_version": …}` bodies), JSON.
    public static let revenueCatWebhooks = InputFormat(rawValue: "revenuecat-webhooks")
}

/// A RevenueCat webhook body (`{"event": {…}, "api_version": "1.0"}`), read for what it says
/// of identity; the purchase it reports travels in the exports and responses too.
///
/// Every event names the customer's `original_app_user_id`, the `app_user_id` it was sent
/// for and the customer's `aliases`: each of those ids is merged onto the original one. A
/// `TRANSFER` event moves the purchases of the ids in `transferred_from` to the first id of
/// `transferred_to` (the others there are that customer's too): the ids it moves from are
/// merged onto it, since what an audit counts (the receipt's purchases and app facts) went
/// with the transfer.
enum WebhookEvent {
    /// Whether a top-level object with `keys` is a webhook body.
    static func recognizes(keys: [String]) -> Bool {
        keys.contains("event") && !keys.contains("subscriber")
    }

    /// Why a body cannot be read: its line and a one-line reason.
    struct Problem: Error, Equatable {
        var line: Int
        var reason: String
    }

    /// One merge an event asks for.
    struct Merge: Equatable, Sendable {
        var id: String
        var onto: String
        var how: CustomerIdentities.Merge
    }

    /// What one body gives: when the event happened (`event_timestamp_ms`, the order merges
    /// are applied in), and its merges, in the order it lists the ids.
    struct Read: Equatable, Sendable {
        var timestamp: Int64?
        var merges: [Merge]
    }

    /// Reads one body.
    static func read(_ body: JSONValue.Located) -> Result<Read, Problem> {
        guard let event = body["event"], event.isObject else {
            let found = body["event"]?.typeName ?? "nothing"
            return .failure(Problem(line: body.line, reason: "event is \(found), not an object"))
        }
        do throws(Problem) {
            var read = Read(timestamp: try timestamp(event), merges: [])
            if try text(event, "type", as: .value) == "TRANSFER" {
                let from = try ids(event, "transferred_from")
                let to = try ids(event, "transferred_to")
                guard let survivor = to.first else {
                    throw Problem(line: event.line, reason: "event.transferred_to is missing or empty")
                }
                for id in to.dropFirst() { read.merges.append(Merge(id: id, onto: survivor, how: .alias)) }
                for id in from { read.merges.append(Merge(id: id, onto: survivor, how: .transfer)) }
            }
            if let original = try text(event, "original_app_user_id") {
                var named = try ids(event, "aliases")
                if let sentFor = try text(event, "app_user_id") { named.insert(sentFor, at: 0) }
                for id in named where id != original { read.merges.append(Merge(id: id, onto: original, how: .alias)) }
            }
            return .success(read)
        } catch {
            return .failure(error)
        }
    }

    /// A string member, an id unless `kind` says otherwise; `nil` when absent, null or empty.
    private static func text(
        _ event: JSONValue.Located, _ key: String, as kind: TextBytes.Kind = .identifier
    ) throws(Problem) -> String? {
        guard let value = event[key] else { return nil }
        switch value.value {
        case .null: return nil
        case .string:
            guard let text = value.text, !text.isEmpty else { return nil }
            return try id(text, "event.\(key)", line: value.line, as: kind)
        default: throw Problem(line: value.line, reason: "event.\(key) is \(value.typeName), not a string")
        }
    }

    /// An array of ids; empty when absent or null. Empty ids are skipped.
    private static func ids(_ event: JSONValue.Located, _ key: String) throws(Problem) -> [String] {
        guard let value = event[key], value.value != .null else { return [] }
        guard let elements = value.elements else {
            throw Problem(line: value.line, reason: "event.\(key) is \(value.typeName), not an array")
        }
        var ids: [String] = []
        for element in elements {
            guard case .string(let id) = element.value else {
                throw Problem(line: element.line, reason: "event.\(key) holds \(element.typeName), not a string")
            }
            if !id.isEmpty { ids.append(try Self.id(id, "event.\(key)", line: element.line, as: .identifier)) }
        }
        return ids
    }

    /// `text`, unless the one rule (`TextBytes`) refuses it as a `kind`.
    private static func id(
        _ text: String, _ name: String, line: Int, as kind: TextBytes.Kind
    ) throws(Problem) -> String {
        if let problem = TextBytes.reason(text, named: name, as: kind) { throw Problem(line: line, reason: problem) }
        return text
    }

    /// `event_timestamp_ms`: whole milliseconds, as a number or a string of digits.
    private static func timestamp(_ event: JSONValue.Located) throws(Problem) -> Int64? {
        guard let value = event["event_timestamp_ms"], value.value != .null else { return nil }
        switch value.value {
        case .number, .string:
            if let text = value.text, let milliseconds = Int64(text) { return milliseconds }
            fallthrough
        default:
            let given = Excerpt.of(value.text ?? value.typeName)
            throw Problem(line: value.line, reason: "event.event_timestamp_ms is not whole milliseconds: '\(given)'")
        }
    }
}
