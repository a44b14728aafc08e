import GrandfatherEngine

extension InputFormat {
    /// RevenueCat's customer-list export, CSV.
    public static let revenueCatCustomerList = InputFormat(rawValue: "revenuecat-customer-list")
}

/// RevenueCat's customer-list export (the Customers dashboard's lists, exported as CSV,
/// comma- or semicolon-delimited): the roster, one customer per `app_user_id`, including
/// customers who never bought anything in-app, so that paid-app buyers who never did are
/// classified too. It says nothing of the app purchase: `first_seen_at` is when RevenueCat
/// first saw the customer, not when they bought the app (FORMATS.md §c, pitfall 13), and
/// `has_made_sandbox_purchase` says a sandbox transaction exists, not that the customer is a
/// tester. So a row gives a customer, and the platform of `latest_store`, from the weakest
/// source but an export row (SPEC §9); its other values are checked and not used.
enum CustomerList {
    /// The columns read, by name.
    enum Column: Int, CaseIterable {
        case appUserID, firstSeenAt, latestStore, hasMadeSandboxPurchase

        var name: String {
            switch self {
            case .appUserID: return "app_user_id"
            case .firstSeenAt: return "first_seen_at"
            case .latestStore: return "latest_store"
            case .hasMadeSandboxPurchase: return "has_made_sandbox_purchase"
            }
        }
    }

    /// Whether `header` is a customer list's: it names `app_user_id` and at least one of the
    /// list's other columns, and is not a transactions export.
    static func recognizes(header: [String]) -> Bool {
        let names = Set(header)
        return names.contains(Column.appUserID.name) && !ExportFile.recognizes(header: header)
            && Column.allCases.dropFirst().contains { names.contains($0.name) }
    }

    /// The customer a row names, or why it is rejected.
    /// - Parameter appStore: the platform `App Store` stands for.
    static func customer<Values: CustomerListValues>(
        _ row: Values, appStore: Platform
    ) -> Result<Customer, CustomerListProblem> {
        // Checked as bytes, before `text` repairs what the one rule (`TextBytes`) refuses.
        if case let problem?? = row.read(.appUserID, { TextBytes.problem($0, as: .identifier) }) {
            return .failure(.init(column: .appUserID, reason: problem.complaint))
        }
        guard let id = row.text(.appUserID) else { return .failure(.init(column: .appUserID, reason: "is missing")) }
        if case .some(nil) = row.read(.firstSeenAt, time) {
            return .failure(.init(column: .firstSeenAt, value: row.text(.firstSeenAt), reason: "is not a time"))
        }
        if case .some(nil) = row.read(.hasMadeSandboxPurchase, RevenueCatValue.bool) {
            return .failure(
                .init(
                    column: .hasMadeSandboxPurchase, value: row.text(.hasMadeSandboxPurchase),
                    reason: "is not a boolean"))
        }
        let platform = row.text(.latestStore).flatMap { store(named: $0)?.platform(appStore: appStore) }
        return .success(Customer(id: id, platform: platform).read(from: .customerList, facts: [.platform]))
    }

    /// Epoch milliseconds (integral or float-formatted), else any time an export writes.
    private static func time(_ bytes: Span<UInt8>) -> Instant? {
        RevenueCatValue.epochMilliseconds(bytes) ?? RevenueCatValue.time(bytes)
    }

    /// The store a `latest_store` names: a code (`play_store`) or the dashboard's display name
    /// (`Google Play`), in any case; `nil` for one it does not know, which gives no platform.
    static func store(named text: String) -> ExportStore? {
        let key = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "_" || $0 == "-" }).joined(
            separator: "_")
        switch key {
        case "app_store", "ios", "apple", "apple_app_store": return .appStore
        case "mac_app_store", "macos": return .macAppStore
        case "play_store", "google_play", "google_play_store", "google", "android": return .playStore
        case "amazon", "amazon_appstore", "amazon_app_store": return .amazon
        case "stripe", "web": return .stripe
        case "paddle": return .paddle
        case "rc_billing", "revenuecat_billing", "web_billing": return .rcBilling
        case "promotional": return .promotional
        default: return nil
        }
    }
}

/// Where a customer-list row's values are read from.
protocol CustomerListValues {
    /// Gives `body` the bytes of `column`; `nil` when it is missing or empty.
    func read<Result>(_ column: CustomerList.Column, _ body: (Span<UInt8>) -> Result) -> Result?
}

extension CustomerListValues {
    func text(_ column: CustomerList.Column) -> String? {
        read(column, RevenueCatValue.text)
    }
}

/// A row as the CSV reader parsed it.
struct CustomerListRow: CustomerListValues {
    let row: RawRow

    func read<Result>(_ column: CustomerList.Column, _ body: (Span<UInt8>) -> Result) -> Result? {
        row.withSpan(column.rawValue, body)
    }
}

/// Why a customer-list row cannot be read: the column and what is wrong with it.
struct CustomerListProblem: Error, Equatable {
    var column: CustomerList.Column
    var reason: String

    init(column: CustomerList.Column, reason: String) {
        self.column = column
        self.reason = reason
    }

    /// A problem with a value, which the reason quotes.
    init(column: CustomerList.Column, value: String?, reason: String) {
        self.init(column: column, reason: reason + ": '\(Excerpt.of(value ?? ""))'")
    }

    /// `app_user_id is missing`.
    var description: String { column.name + " " + reason }
}

/// Reads a customer-list file into the record stream.
enum CustomerListFile {
    /// Reads the file at `input`, whose header `CustomerList.recognizes` accepted, giving each
    /// row's customer to `sink` (as `.customerList`'s) or rejecting the row.
    static func read(
        _ source: ByteSource, header: ExportHeader, appStore: Platform, into sink: inout IngestSink,
        meter: ProgressMeter?
    ) throws(GrandfatherError) {
        let reader = CSVReader(
            header: header.names, fieldNames: CustomerList.Column.allCases.map(\.name), delimiter: header.delimiter)
        var rows = Rows(appStore: appStore, sink: sink)
        _ = try Records.read(
            source, with: reader, range: source.dataStart..<source.size, isFirst: true, into: &rows, meter: meter)
        sink = rows.sink
    }

    private struct Rows: RowSink {
        let appStore: Platform
        var sink: IngestSink

        mutating func accept(_ row: RawRow) {
            switch CustomerList.customer(CustomerListRow(row: row), appStore: appStore) {
            case .success(let customer): sink.accept(customer: customer, line: row.line)
            case .failure(let problem):
                sink.reject(
                    line: row.line, column: row.column(of: problem.column.rawValue), field: problem.column.name,
                    reason: problem.description)
            }
        }

        mutating func reject(line: Int, column: Int?, field: String?, reason: String) {
            sink.reject(line: line, column: column, field: field, reason: reason)
        }
    }
}
