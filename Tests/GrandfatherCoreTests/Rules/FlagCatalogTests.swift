import Testing

@testable import GrandfatherCore

/// SPEC §5: every flag has a stable code, a severity and a one-sentence explanation.
struct FlagCatalogTests {
    /// The codes of SPEC §5's table.
    static let specCodes: Set<String> = [
        "bought_just_before_cutover", "bought_just_after_cutover", "version_date_disagree", "naive_version_trap",
        "missing_original_version", "unparseable_version", "no_cutover_for_platform", "preordered",
        "grandfathered_and_subscribed", "billing_retry", "in_grace_period", "family_shared_only", "refunded",
        "consumable_only", "orphan_transactions", "sandbox", "conflicting_duplicate", "impossible_dates",
    ]
    /// Flags the App Store readers add (issue 6: "add any new flags to the catalog").
    static let appStoreCodes: Set<String> = ["unlinked_transactions"]
    /// Flags SPEC §9 adds for customers from several sources.
    static let severalSourcesCodes: Set<String> = [
        "conflicting_customer_facts", "grandfathered_not_granted", "granted_not_entitled",
    ]
    /// Flags of Google Play's evidence: the orders customers claim, stored licensing verdicts (issue 37).
    static let claimedOrderCodes: Set<String> = [
        "order_not_found", "order_refunded", "order_claimed_twice", "licensed_only_after_cutover",
    ]

    @Test("the catalog holds exactly SPEC §5's codes, the App Store ones, SPEC §9's and claimed orders', each once")
    func codes() {
        let codes = Flag.allCases.map(\.code)
        #expect(Set(codes).count == codes.count)
        #expect(
            Set(codes)
                == Self.specCodes.union(Self.appStoreCodes).union(Self.severalSourcesCodes).union(
                    Self.claimedOrderCodes))
        #expect(Flag.conflictingCustomerFacts.severity == .data)
    }

    @Test("codes are snake_case", arguments: Flag.allCases)
    func snakeCase(flag: Flag) {
        #expect(flag.code.wholeMatch(of: /[a-z]+(_[a-z]+)*/) != nil)
        #expect(Flag(rawValue: flag.code) == flag)
    }

    @Test("each explanation is one non-empty sentence ending with a period", arguments: Flag.allCases)
    func explanation(flag: Flag) {
        let text = flag.explanation
        #expect(!text.isEmpty)
        #expect(text.hasSuffix("."))
        #expect(!text.contains("\n"))
        #expect(text.first?.isUppercase == true)
        #expect(Severity.allCases.contains(flag.severity))
    }

    @Test("explanations are distinct")
    func distinctExplanations() {
        #expect(Set(Flag.allCases.map(\.explanation)).count == Flag.allCases.count)
    }

    @Test("flags sort by code")
    func order() {
        let sorted = Flag.allCases.sorted()
        #expect(sorted.map(\.code) == Flag.allCases.map(\.code).sorted())
    }

    typealias Severity = Flag.Severity
}
