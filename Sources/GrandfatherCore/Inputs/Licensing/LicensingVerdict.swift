import GrandfatherEngine

/// One stored licensing verdict, as a team's server keeps it: a JSON object naming the
/// customer (`customer_id`, the app's own account id) beside one of Google Play's two
/// licensing answers.
///
/// - **Play Integrity**: the decoded token payload, its fields at the top level or under
///   `tokenPayloadExternal` (as `decodeIntegrityToken` returns it): the verdict is
///   `accountDetails.appLicensingVerdict` (`LICENSED`, `UNLICENSED`, `UNEVALUATED`), its instant
///   `requestDetails.timestampMillis` (milliseconds, a string or a number), the app
///   `requestDetails.requestPackageName`.
/// - **License Verification Library**: the server's signed response as `signed_data`,
///   `responseCode|nonce|packageName|versionCode|userId|timestamp` (milliseconds) with
///   optional `:extras`; response codes 0 (`LICENSED`) and 2 (`LICENSED_OLD_KEY`) are licensed,
///   1 (`NOT_LICENSED`) and every error code are not.
enum LicensingVerdict {
    /// Why a verdict cannot be read.
    struct Problem: Error, Equatable {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The object's keys that tell a verdict file, beside `customer_id`.
    static let shapeKeys = ["accountDetails", "tokenPayloadExternal", "signed_data"]

    /// Whether the first object of a file is a stored verdict.
    static func recognizes(keys: [String]) -> Bool {
        keys.contains("customer_id") && keys.contains { shapeKeys.contains($0) }
    }

    /// The verdict `body` holds, or why it cannot be read. `sales.paid_app` names the app when
    /// the policy does (`sales.paid_app`): a verdict about another app is rejected.
    static func read(_ body: JSONValue.Located, sales: SalesPolicy) -> Result<LicensingRules.Verdict, Problem> {
        guard body.isObject else { return .failure(Problem("a licensing verdict must be a JSON object")) }
        guard let id = body["customer_id"]?.text else { return .failure(Problem("customer_id is missing")) }
        if let problem = IngestSink.problem(id, named: "customer_id") { return .failure(Problem(problem)) }
        if let signed = body["signed_data"] {
            guard let text = signed.string else { return .failure(Problem("signed_data must be a string")) }
            return lvl(text, customer: id, sales: sales)
        }
        let payload = body["tokenPayloadExternal"] ?? body
        guard let verdict = payload["accountDetails"]?["appLicensingVerdict"]?.string else {
            return .failure(Problem("accountDetails.appLicensingVerdict is missing"))
        }
        let licensed: Bool
        switch verdict {
        case "LICENSED": licensed = true
        case "UNLICENSED", "UNEVALUATED": licensed = false
        default:
            return .failure(
                Problem("appLicensingVerdict '\(Excerpt.of(verdict))' is not LICENSED, UNLICENSED or UNEVALUATED"))
        }
        guard let millis = payload["requestDetails"]?["timestampMillis"]?.text else {
            return .failure(Problem("requestDetails.timestampMillis is missing"))
        }
        guard let at = instant(millis: millis) else {
            return .failure(
                Problem("requestDetails.timestampMillis '\(Excerpt.of(millis))' is not milliseconds since 1970"))
        }
        if let app = payload["requestDetails"]?["requestPackageName"]?.text, sales.rulesOut([app]) {
            return .failure(Problem("requestPackageName '\(Excerpt.of(app))' is not an app sales.paid_app names"))
        }
        return .success(.init(customerID: id, at: at, licensed: licensed))
    }

    /// A License Verification Library response's signed data.
    private static func lvl(_ text: String, customer: String, sales: SalesPolicy) -> Result<
        LicensingRules.Verdict, Problem
    > {
        let main = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let fields = main.split(separator: "|", omittingEmptySubsequences: false)
        guard fields.count >= 6, let code = Int(fields[0]) else {
            return .failure(Problem("signed_data is not responseCode|nonce|packageName|versionCode|userId|timestamp"))
        }
        guard let at = instant(millis: String(fields[5])) else {
            return .failure(
                Problem("signed_data's timestamp '\(Excerpt.of(String(fields[5])))' is not milliseconds since 1970"))
        }
        if sales.rulesOut([String(fields[2])]) {
            return .failure(
                Problem(
                    "signed_data's packageName '\(Excerpt.of(String(fields[2])))' is not an app sales.paid_app names"))
        }
        return .success(.init(customerID: customer, at: at, licensed: code == 0 || code == 2))
    }

    /// Milliseconds since 1970 as digits, within the instants Grandfather reads. Fifteen digits
    /// reach past the year 9999 and stay far from overflowing when made microseconds.
    static func instant(millis: String) -> Instant? {
        guard !millis.isEmpty, millis.utf8.count <= 15, millis.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = Int64(millis)
        else { return nil }
        let instant = Instant(microseconds: value * 1_000)
        return Instant.supported.contains(instant) ? instant : nil
    }
}
