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

    /// The object's keys that tell a verdict file: Google's answer, whatever stands beside it.
    static let shapeKeys = ["accountDetails", "tokenPayloadExternal", "signed_data"]

    /// Whether the first object of a file is a stored verdict: it holds Google's answer. A first
    /// verdict without `customer_id` is still one, rejected at its line as any later one is,
    /// rather than a file no source takes.
    static func recognizes(keys: [String]) -> Bool {
        keys.contains { shapeKeys.contains($0) }
    }

    /// The verdict `body` holds, or why it cannot be read. `sales.paid_app` names the app when
    /// the policy does (`sales.paid_app`): a verdict about another app is rejected.
    static func read(_ body: JSONValue.Located, sales: SalesPolicy) -> Result<LicensingRules.Verdict, Problem> {
        guard body.isObject else { return .failure(Problem("a licensing verdict must be a JSON object")) }
        // An id is a string or a number: `true` from a broken export is no customer's.
        if let given = body["customer_id"] {
            switch given.value {
            case .string, .number, .null: break
            default: return .failure(Problem("customer_id is \(given.typeName), not an id"))
            }
        }
        guard let id = body["customer_id"]?.text else {
            return .failure(
                Problem(
                    "customer_id is missing: a stored verdict names the customer's account id beside Google's answer"))
        }
        if let problem = TextBytes.reason(id, named: "customer_id", as: .identifier) {
            return .failure(Problem(problem))
        }
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
        let at: Instant
        switch verdictTime(millis, named: "requestDetails.timestampMillis") {
        case .success(let time): at = time
        case .failure(let problem): return .failure(problem)
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
        let at: Instant
        switch verdictTime(String(fields[5]), named: "signed_data's timestamp") {
        case .success(let time): at = time
        case .failure(let problem): return .failure(problem)
        }
        // An empty package names no app, as a verdict or notification without one does.
        if !fields[2].isEmpty, sales.rulesOut([String(fields[2])]) {
            return .failure(
                Problem(
                    "signed_data's packageName '\(Excerpt.of(String(fields[2])))' is not an app sales.paid_app names"))
        }
        return .success(.init(customerID: customer, at: at, licensed: code == 0 || code == 2))
    }

    /// 2010-07-27T00:00:00Z, the day Google Play's licensing service (then the Android
    /// Market's) began: no verdict is older. A time before it is a default or a broken clock
    /// (`timestampMillis: "0"` is 1970), and would date a purchase years before the app existed.
    static let licensingBegan = Instant(seconds: 1_280_188_800)

    /// A verdict's time, or why it is none: milliseconds since 1970 (`instant(millis:)`) from the
    /// day licensing began.
    private static func verdictTime(_ millis: String, named name: String) -> Result<Instant, Problem> {
        guard let at = instant(millis: millis) else {
            return .failure(Problem("\(name) '\(Excerpt.of(millis))' is not milliseconds since 1970"))
        }
        guard at >= licensingBegan else {
            return .failure(
                Problem("\(name) '\(Excerpt.of(millis))' is before 2010-07-27, when Google Play's licensing began"))
        }
        return .success(at)
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
