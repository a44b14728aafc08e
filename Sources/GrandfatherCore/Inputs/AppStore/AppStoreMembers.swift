import GrandfatherEngine

/// The members of one App Store object (a decoded payload, a receipt's row) read as typed
/// values, once, where the file is read: a value present but unreadable refuses its record,
/// the reason naming the member as the file spells it (`purchaseDate`, `purchase_date_ms`).
struct AppStoreMembers {
    /// Why a member cannot be read.
    struct Problem: Error, Equatable {
        var reason: String
    }

    let object: JSONValue.Located

    init(_ object: JSONValue.Located) {
        self.object = object
    }

    /// A member as text: a string, a number's literal; `nil` when absent, null or empty.
    func text(_ key: String) -> String? {
        object[key]?.text
    }

    /// A member that must be present.
    func required(_ key: String) throws(Problem) -> String {
        guard let text = text(key) else { throw Problem(reason: "missing required field \(key)") }
        return text
    }

    /// A transaction's ids and product, from the members that hold them in this shape; the
    /// transaction id and product required.
    func identity(transactionID: String, originalTransactionID: String, productID: String) throws(Problem)
        -> OwnedTransactionTexts
    {
        var texts = OwnedTransactionTexts()
        texts[.transactionID] = try required(transactionID)
        texts[.originalTransactionID] = text(originalTransactionID)
        texts[.productID] = try required(productID)
        return texts
    }

    /// A date member (epoch milliseconds within `Instant.supported`); `nil` when absent.
    func instant(_ key: String) throws(Problem) -> Instant? {
        if let reason = AppStoreValue.dateProblem(object[key], named: key) { throw Problem(reason: reason) }
        return AppStoreValue.instant(object[key])
    }

    /// A date member that must be present.
    func requiredInstant(_ key: String) throws(Problem) -> Instant {
        guard let instant = try instant(key) else { throw Problem(reason: "missing required field \(key)") }
        return instant
    }

    /// A member of a closed vocabulary, spelled as the App Store spells it: `spelling` gives
    /// the canonical spelling (`Auto-Renewable Subscription` → `auto_renewable`); `nil` when
    /// absent.
    func value<Value: RawRepresentable>(_ key: String, spelling: (String) -> String) throws(Problem) -> Value?
    where Value.RawValue == String {
        guard let raw = text(key) else { return nil }
        guard let value = Value(rawValue: spelling(raw)) else {
            throw Problem(reason: "unknown \(key) '\(Excerpt.of(raw))'")
        }
        return value
    }

    /// A price member in milliunits (`9990`) as a canonical decimal in units (`9.99`); `nil`
    /// when absent.
    func price(_ key: String) throws(Problem) -> String? {
        guard let raw = text(key) else { return nil }
        guard let units = AppStoreValue.units(milliunits: raw) else {
            throw Problem(reason: "bad \(key) '\(Excerpt.of(raw))' (not a decimal)")
        }
        return units
    }
}
