/// Compares a new run with the previous snapshot in one merge over both, in customer-id
/// order: the previous customers stream from SQLite, the new ones are already sorted.
enum ChangeDetector {
    /// What changed in `results` since `previous`, or why nothing was compared.
    static func changes(in results: CustomerResults, since previous: PreviousRun) throws(GrandfatherError) -> ChangeSet
    {
        switch previous {
        case .none(let basis): return .nothing(basis)
        case .snapshot(let snapshot): return try compare(results, with: snapshot)
        }
    }

    static func compare(_ results: CustomerResults, with previous: PreviousSnapshot) throws(GrandfatherError)
        -> ChangeSet
    {
        var tally = Tally()
        var position = 0
        let count = results.count
        try previous.forEachCustomer { before in
            // New customers sorting before this previous one are additions.
            while position < count, results.id(at: position).codePointPrecedes(before.id) {
                tally.add(from: nil, to: results.state(at: position))
                position += 1
            }
            if position < count, results.id(at: position).codePointEquals(before.id) {
                tally.add(from: before, to: results.state(at: position))
                position += 1
            } else {
                tally.add(from: before, to: nil)
            }
        }
        while position < count {
            tally.add(from: nil, to: results.state(at: position))
            position += 1
        }
        return ChangeSet(
            basis: .compared(path: previous.path, runID: previous.runID), changes: tally.changes,
            matrix: tally.matrix, flagsAdded: tally.flagsAdded.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            flagsRemoved: tally.flagsRemoved.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    private struct Tally {
        var changes: [CustomerChange] = []
        var matrix = ClassMatrix()
        var flagsAdded: [String: Int] = [:]
        var flagsRemoved: [String: Int] = [:]

        mutating func add(from before: PreviousSnapshot.Customer?, to after: PreviousSnapshot.Customer?) {
            matrix.add(from: before?.customerClass, to: after?.customerClass)
            let oldFlags = Set(before?.flags ?? [])
            let newFlags = Set(after?.flags ?? [])
            let oldGrants = Set(before?.entitlements ?? [])
            let newGrants = Set(after?.entitlements ?? [])
            guard before?.customerClass != after?.customerClass || oldFlags != newFlags || oldGrants != newGrants
            else { return }
            let added = newFlags.subtracting(oldFlags).sorted()
            let removed = oldFlags.subtracting(newFlags).sorted()
            for flag in added { flagsAdded[flag, default: 0] += 1 }
            for flag in removed { flagsRemoved[flag, default: 0] += 1 }
            changes.append(
                CustomerChange(
                    customerID: after?.id ?? before?.id ?? "", from: before?.customerClass, to: after?.customerClass,
                    flagsAdded: added, flagsRemoved: removed,
                    entitlementsAdded: newGrants.subtracting(oldGrants).sorted(),
                    entitlementsRemoved: oldGrants.subtracting(newGrants).sorted()))
        }
    }
}

extension CustomerResults {
    /// The id of the customer at `position` in id order.
    func id(at position: Int) -> String {
        withVerdict(at: position) { customer, _, _ in customer.id }
    }

    /// The customer at `position` as a snapshot would record it: class, flag codes and
    /// `entitlement:source` pairs.
    func state(at position: Int) -> PreviousSnapshot.Customer {
        withVerdict(at: position) { customer, verdict, activity in
            var flags: [String] = []
            verdict.flags.forEach { flags.append($0.code) }
            // As the snapshot records them: only grandfathered customers and subscribers hold grants.
            let holds = verdict.customerClass == .grandfathered || verdict.customerClass == .subscriber
            let grants =
                holds
                ? classifier.withGrants(activity, verdict.customerClass) { grants in
                    grants.map { classifier.name(of: $0) + ":" + $0.source.rawValue }
                } : []
            return PreviousSnapshot.Customer(
                id: customer.id, customerClass: verdict.customerClass, flags: flags.sorted(),
                entitlements: Array(Set(grants)).sorted())
        }
    }
}
