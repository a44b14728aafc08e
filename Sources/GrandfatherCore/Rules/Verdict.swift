/// The compact outcome of classifying one customer (SPEC §4, §5): a few bytes and no
/// references, so that a million of them are copied, counted and sorted without touching a
/// reference count. What decided it lies in the customer's activity, beside it
/// (`CustomerResults` lends both).
public struct Verdict: Sendable, Equatable {
    public var customerClass: CustomerClass
    /// The version answer of SPEC §8.10: `nil` when there is none.
    public var byVersion: Bool?
    /// The date answer of SPEC §8.10: `nil` when there is none.
    public var byDate: Bool?
    public var flags: FlagSet

    init(customerClass: CustomerClass, flags: FlagSet, byVersion: Bool?, byDate: Bool?) {
        self.customerClass = customerClass
        self.byVersion = byVersion
        self.byDate = byDate
        self.flags = flags
    }

    /// The rule of SPEC §4 that decided a class, as `grandfather explain` states it.
    public enum Reason: String, CaseIterable, Sendable, Codable {
        /// Grandfathered: the version answer said "bought before the cutover".
        case version
        /// Grandfathered: the date answer said so.
        case date
        /// Grandfathered: both answers said so (basis `both`, or `either` with both).
        case versionAndDate = "version_and_date"
        /// Subscriber: not grandfathered, and at least one transaction is current.
        case currentTransaction = "current_transaction"
        /// Lapsed: neither, but it had a non-consumable, auto-renewable or non-renewing transaction.
        case nothingCurrent = "nothing_current"
        /// New: none of the above (consumables alone, or no transaction at all).
        case nothingDurable = "nothing_durable"
        /// Excluded: the customer's own record is sandbox (SPEC §8.9).
        case sandbox
    }
}
