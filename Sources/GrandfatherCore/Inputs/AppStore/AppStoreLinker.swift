import GrandfatherEngine

/// Turns the records of every App Store input of a run into linked records: one customer
/// identity across files, one transaction per id where signed copies say which is newest,
/// and each subscription's renewal state on its latest transaction.
///
/// The rules (docs/AppStore.md, "App Store files"):
/// - A transaction's customer is the one its file names (a receipt), else its identity
///   (`appTransactionId`, or `appAccountToken` when the policy says so), else the customer
///   who owns its subscription (`originalTransactionId`) in the same run, else a customer of
///   its own, `unlinked:<originalTransactionId>`, flagged `unlinked_transactions`.
/// - Trust ranks first, everywhere a choice is made between records (SPEC §9, "Trust"): a
///   record of weaker trust (self-signed, unchecked, unsigned) never supersedes, merges with
///   or outranks a verified one, whatever its `signedDate` or purchase date says.
/// - Copies of one transaction id: those of weaker trust than the strongest copy, and those
///   of that trust signed before the newest, are superseded (accepted, not used). Copies that
///   cannot be ordered all go on, so that the ledger tells exact repeats from conflicting
///   duplicates (SPEC §8.23).
/// - Renewal info applies to the latest transaction (of the strongest trust, then by purchase
///   date) of its subscription, unless it is of weaker trust than that transaction; of several
///   for one subscription, the strongest, then newest signed, wins. Renewal info whose
///   subscription has no transaction in the run is rejected: it cannot be used.
/// - An app transaction's customer id is its `appTransactionId` (under `app_account_token`
///   identity: the token a transaction pairs with it, when one does); without a platform it
///   takes `apple.default_platform`, or is rejected.
struct AppStoreLinker {
    /// The records one file contributes, in file order.
    struct FileRows {
        /// Each read from the App Store verified or not: only a verified one outranks the
        /// team's own customers file (SPEC §9).
        var customers: [(line: Int, customer: Customer)] = []
        var transactions: [AppStoreTransaction] = []
        var rejections: [(line: Int, reason: String)] = []
        /// Rows accepted without a record of their own: notes, renewal info applied, and
        /// superseded copies.
        var acceptedWithoutRecord = 0
        var superseded = 0
    }

    /// Prefix of the id of a customer made for a subscription no identity reaches.
    static let unlinkedPrefix = "unlinked:"

    let policy: ApplePolicy

    /// Links `files` (one entry per App Store input, in input order).
    func link(_ files: [[AppStoreRecord]]) -> (rows: [FileRows], unlinkedCustomers: Set<String>) {
        var rows = Array(repeating: FileRows(), count: files.count)
        var transactions: [Located<AppStoreTransaction>] = []
        var customers: [Located<AppStoreCustomer>] = []
        var renewals: [Located<AppStoreRenewal>] = []
        for (file, records) in files.enumerated() {
            for (order, record) in records.enumerated() {
                switch record {
                case .transaction(let value): transactions.append(Located(file: file, order: order, value: value))
                case .customer(let value): customers.append(Located(file: file, order: order, value: value))
                case .renewal(let value): renewals.append(Located(file: file, order: order, value: value))
                case .noted: rows[file].acceptedWithoutRecord += 1
                case .rejected(let line, let reason): rows[file].rejections.append((line, reason))
                }
            }
        }

        var linked = newestCopies(of: transactions, key: \.transactionID, rows: &rows)
        let unlinked = assignCustomers(&linked)
        applyRenewals(renewals, to: &linked, rows: &rows)
        for located in linked { rows[located.file].transactions.append(located.value) }

        let tokens = accountTokensByAppTransaction(linked)
        var named = customers
        for index in named.indices {
            if policy.customerIdentity == .appAccountToken, let id = named[index].value.appTransactionID,
                let token = tokens[id]
            {
                named[index].value.id = token
            }
        }
        for located in newestCopies(of: named, key: \.id, rows: &rows) {
            let record = located.value
            guard let id = record.id else {
                rows[located.file].rejections.append((record.line, "missing required field customer_id"))
                continue
            }
            guard let platform = record.platform ?? policy.defaultPlatform else {
                rows[located.file].rejections.append(
                    (
                        record.line,
                        "app transaction has no originalPlatform (signed before iOS 18.4) and the policy sets no apple.default_platform"
                    ))
                continue
            }
            rows[located.file].customers.append((record.line, record.customer(id: id, platform: platform)))
        }
        for index in rows.indices {
            rows[index].customers.sort { $0.line < $1.line }
            rows[index].transactions.sort { $0.line < $1.line }
        }
        return (rows, unlinked)
    }

    /// Drops the copies of one key that an ordered copy supersedes, counting them as accepted
    /// in their files; keeps input order otherwise.
    private func newestCopies<Record: SignedRecord>(
        of records: [Located<Record>], key: (Record) -> String?, rows: inout [FileRows]
    ) -> [Located<Record>] {
        var best: [String: Precedence] = [:]
        for located in records {
            guard let id = key(located.value) else { continue }
            let precedence = Precedence(located.value)
            if let seen = best[id], seen >= precedence { continue }
            best[id] = precedence
        }
        var kept: [Located<Record>] = []
        for located in records {
            if let id = key(located.value), let strongest = best[id], Precedence(located.value).yields(to: strongest) {
                rows[located.file].acceptedWithoutRecord += 1
                rows[located.file].superseded += 1
                continue
            }
            kept.append(located)
        }
        return kept
    }

    /// Names each transaction's customer; returns the ids made for unlinked subscriptions.
    private func assignCustomers(_ transactions: inout [Located<AppStoreTransaction>]) -> Set<String> {
        // The owner of a subscription is the customer of its newest-signed identified
        // transaction (ties: the smaller id), so the choice does not depend on file order.
        // Trust ranks before signedDate: a weaker record never takes a subscription from a
        // verified one.
        var owners: [String: (customer: String, precedence: Precedence)] = [:]
        for index in transactions.indices {
            let value = transactions[index].value
            guard let customer = value.texts[.customerID] ?? identity(of: value) else { continue }
            transactions[index].value.texts[.customerID] = customer
            guard let chain = value.subscription else { continue }
            let precedence = Precedence(value)
            if let owner = owners[chain] {
                let tie = precedence == owner.precedence && customer < owner.customer
                if precedence < owner.precedence || (precedence == owner.precedence && !tie) { continue }
            }
            owners[chain] = (customer, precedence)
        }
        var unlinked = Set<String>()
        for index in transactions.indices where transactions[index].value.texts[.customerID] == nil {
            guard let chain = transactions[index].value.subscription else { continue }
            if let owner = owners[chain] {
                transactions[index].value.texts[.customerID] = owner.customer
            } else {
                let id = Self.unlinkedPrefix + chain
                transactions[index].value.texts[.customerID] = id
                unlinked.insert(id)
            }
        }
        return unlinked
    }

    /// Sets each subscription's renewal state on its latest transaction: on every copy of
    /// that transaction id still kept, so that copies stay alike.
    private func applyRenewals(
        _ renewals: [Located<AppStoreRenewal>], to transactions: inout [Located<AppStoreTransaction>],
        rows: inout [FileRows]
    ) {
        var latest: [String: (id: String, purchased: Instant, trust: AppStoreTrust)] = [:]
        for located in transactions {
            guard let chain = located.value.subscription, let id = located.value.transactionID else { continue }
            let purchased = located.value.values.purchaseDate
            let trust = located.value.trust
            if let current = latest[chain] {
                if trust > current.trust { continue }
                if trust == current.trust, purchased <= current.purchased { continue }
            }
            latest[chain] = (id, purchased, trust)
        }
        var chosen: [String: Located<AppStoreRenewal>] = [:]
        for located in renewals {
            let chain = located.value.originalTransactionID
            guard latest[chain] != nil else {
                rows[located.file].rejections.append(
                    (
                        located.value.line,
                        "renewal info for subscription \(Excerpt.of(chain)) matches no transaction in the App Store inputs"
                    ))
                continue
            }
            rows[located.file].acceptedWithoutRecord += 1
            if let current = chosen[chain], Precedence(current.value) > Precedence(located.value) { continue }
            chosen[chain] = located
        }
        for (chain, renewal) in chosen {
            // Renewal info weaker than the transaction it would change is not used.
            guard let transaction = latest[chain], renewal.value.trust > transaction.trust else { continue }
            chosen[chain] = nil
            rows[renewal.file].superseded += 1
        }
        guard !chosen.isEmpty else { return }
        for index in transactions.indices {
            guard let chain = transactions[index].value.subscription, let renewal = chosen[chain],
                transactions[index].value.transactionID == latest[chain]?.id
            else { continue }
            if let state = renewal.value.renewalState {
                transactions[index].value.values.renewalState = state
            }
            if let grace = renewal.value.gracePeriodExpiresDate {
                transactions[index].value.values.gracePeriodExpiresDate = grace
            }
        }
    }

    /// Under `app_account_token` identity: the token paired with each `appTransactionId`
    /// by a transaction that carries both (the smallest, if several).
    private func accountTokensByAppTransaction(_ transactions: [Located<AppStoreTransaction>]) -> [String: String] {
        guard policy.customerIdentity == .appAccountToken else { return [:] }
        var tokens: [String: String] = [:]
        for located in transactions {
            guard let id = located.value.appTransactionID, let token = located.value.appAccountToken else { continue }
            if let seen = tokens[id], seen <= token { continue }
            tokens[id] = token
        }
        return tokens
    }

    private func identity(of transaction: AppStoreTransaction) -> String? {
        switch policy.customerIdentity {
        case .appTransactionID: return transaction.appTransactionID
        case .appAccountToken: return transaction.appAccountToken
        }
    }
}

/// A record with the file it came from and its place there.
private struct Located<Value> {
    var file: Int
    var order: Int
    var value: Value
}

/// Records that may come in several signed copies.
private protocol SignedRecord {
    var signedDate: Instant? { get }
    var trust: AppStoreTrust { get }
}

extension AppStoreTransaction: SignedRecord {}
extension AppStoreCustomer: SignedRecord {}
extension AppStoreRenewal: SignedRecord {}

/// Which of two records wins a choice: the stronger trust, then the later `signedDate` (a
/// record without one is earlier than any with one). Greater wins.
private struct Precedence: Comparable {
    var trust: AppStoreTrust
    var signedDate: Instant?

    init(_ record: some SignedRecord) {
        trust = record.trust
        signedDate = record.signedDate
    }

    static func < (lhs: Precedence, rhs: Precedence) -> Bool {
        // `AppStoreTrust` orders strongest first.
        if lhs.trust != rhs.trust { return lhs.trust > rhs.trust }
        switch (lhs.signedDate, rhs.signedDate) {
        case (nil, nil): return false
        case (nil, _): return true
        case (_, nil): return false
        case (let a?, let b?): return a < b
        }
    }

    /// Whether a copy of this precedence gives way to `strongest`, the best copy of its key: it
    /// is of weaker trust, or of the same trust and signed before it. Copies of the strongest
    /// trust that cannot be ordered (no `signedDate`) all go on.
    func yields(to strongest: Precedence) -> Bool {
        if trust != strongest.trust { return true }
        guard let signedDate, let newest = strongest.signedDate else { return false }
        return signedDate < newest
    }
}
