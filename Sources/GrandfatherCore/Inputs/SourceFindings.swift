/// Something a source learns beside its records and hands on to the stages and reports after
/// ingest: how the App Store's signatures were treated, the copies the stores' sales reports
/// count, the orders customers claim, what a subscription service has active.
///
/// A source declares its own kinds in its folder and hands them on in its `SourceOutcome`'s
/// `findings`; the door merges what every file and source hands on of one kind, files it under
/// the merged customer ids, and folds in the records a kind gives once every source is read.
/// No shared type grows a field for a new source.
protocol SourceFinding: Sendable {
    /// What a run holds of this kind when no source handed one on.
    init()

    /// Takes in `later`, handed on after this one (by a later file, or a later source).
    mutating func merge(_ later: Self)

    /// This finding with the customer ids it names filed under the customers `identities`
    /// merges them onto (SPEC §8.2's identities, given by RevenueCat's webhook events).
    func refiled(by identities: CustomerIdentities) -> Self

    /// Records to fold into the ledger once every source is read, weighed against what every
    /// source handed on (the orders customers claim, against the sales reports' orders).
    func customers(weighedAgainst findings: SourceFindings) -> [Customer]
}

extension SourceFinding {
    func refiled(by identities: CustomerIdentities) -> Self { self }

    func customers(weighedAgainst findings: SourceFindings) -> [Customer] { [] }

    /// `later` merged in, when it is of this kind (it always is: findings are kept by kind).
    fileprivate func merging(_ later: any SourceFinding) -> any SourceFinding {
        guard let later = later as? Self else { return self }
        var merged = self
        merged.merge(later)
        return merged
    }
}

/// What the sources of a run handed on beside records, one value of each kind.
struct SourceFindings: Sendable {
    private var byKind: [ObjectIdentifier: any SourceFinding] = [:]

    init() {}

    /// What was handed on of `kind`: the kind's empty value when nothing was. Read only: a
    /// value changed in place here would be copied whole at each change (the list still holds
    /// it), so a source builds its finding apart and hands it on once.
    subscript<Finding: SourceFinding>(_ kind: Finding.Type) -> Finding {
        (byKind[ObjectIdentifier(kind)] as? Finding) ?? Finding()
    }

    /// What was handed on of `kind`, or `nil` when no source handed one on; set, it replaces
    /// what was (`nil`: as if none had been handed on). To add to it, hand on.
    subscript<Finding: SourceFinding>(ifHandedOn kind: Finding.Type) -> Finding? {
        get { byKind[ObjectIdentifier(kind)] as? Finding }
        set { byKind[ObjectIdentifier(kind)] = newValue }
    }

    /// Hands on `finding`, merged after what was handed on of its kind before.
    mutating func handOn<Finding: SourceFinding>(_ finding: Finding) {
        merge(kind: ObjectIdentifier(Finding.self), finding)
    }

    /// Takes in everything `later` holds, each kind merged after this one's.
    mutating func merge(_ later: SourceFindings) {
        for (kind, finding) in later.byKind { merge(kind: kind, finding) }
    }

    /// Every finding filed under the customers `identities` merges ids onto.
    func refiled(by identities: CustomerIdentities) -> SourceFindings {
        guard !identities.isEmpty else { return self }
        var refiled = SourceFindings()
        refiled.byKind = byKind.mapValues { $0.refiled(by: identities) }
        return refiled
    }

    /// The records every kind gives once every source is read, kinds in a fixed order (their
    /// names), so that the ledger is given them alike on every run.
    var weighedCustomers: [Customer] {
        byKind.values.sorted { String(reflecting: type(of: $0)) < String(reflecting: type(of: $1)) }
            .flatMap { $0.customers(weighedAgainst: self) }
    }

    private mutating func merge(kind: ObjectIdentifier, _ later: any SourceFinding) {
        byKind[kind] = byKind[kind].map { $0.merging(later) } ?? later
    }
}
