import Foundation

/// Two policies over the same inputs, customer by customer: the dry run an engineer reads
/// before switching business model ("what if we cut over by date instead of version?").
public struct PolicyComparison: Sendable {
    /// A customer the two policies treat differently: another class, or other entitlements.
    public struct Difference: Sendable, Equatable {
        public var customerID: String
        public var classA: CustomerClass
        public var classB: CustomerClass
        public var flagsGained: [String]
        public var flagsLost: [String]
        /// `entitlement:source` pairs under each policy.
        public var entitlementsA: [String]
        public var entitlementsB: [String]
    }

    /// Revenue at stake held by customers that move from one class to another.
    public struct Movement: Sendable, Equatable {
        public var from: CustomerClass
        public var to: CustomerClass
        public var customers: Int
        public var figures: RevenueAtStake.Figures
    }

    public let a: Audit
    public let b: Audit
    /// Customers by class under A (rows) and B (columns).
    public private(set) var matrix = ClassMatrix()
    /// In customer-id order.
    public private(set) var differences: [Difference] = []
    /// Customers gaining or losing each flag from A to B, codes sorted.
    public private(set) var flagsGained: [(String, Int)] = []
    public private(set) var flagsLost: [(String, Int)] = []
    /// Paying customers whose class changes, per (from, to), in class order.
    public private(set) var movements: [Movement] = []

    /// Compares two audits of the same inputs.
    /// - Throws: `GrandfatherError.internal` if they do not hold the same customers.
    public init(_ a: Audit, _ b: Audit) throws(GrandfatherError) {
        self.a = a
        self.b = b
        guard a.customers.count == b.customers.count else {
            throw .internal("the two audits hold different customers")
        }
        var gained: [String: Int] = [:]
        var lost: [String: Int] = [:]
        var moving: [Int: Movement] = [:]
        let classes = CustomerClass.allCases
        for position in 0..<a.customers.count {
            let before = a.customers.state(at: position)
            let after = b.customers.state(at: position)
            guard before.id.codePointEquals(after.id) else { throw .internal("the two audits' customers differ") }
            matrix.add(from: before.customerClass, to: after.customerClass)
            let flagsGained = Set(after.flags).subtracting(before.flags).sorted()
            let flagsLost = Set(before.flags).subtracting(after.flags).sorted()
            for flag in flagsGained { gained[flag, default: 0] += 1 }
            for flag in flagsLost { lost[flag, default: 0] += 1 }
            guard before.customerClass != after.customerClass || before.entitlements != after.entitlements else {
                continue
            }
            differences.append(
                Difference(
                    customerID: before.id, classA: before.customerClass, classB: after.customerClass,
                    flagsGained: flagsGained, flagsLost: flagsLost, entitlementsA: before.entitlements,
                    entitlementsB: after.entitlements))
            guard before.customerClass != after.customerClass else { continue }
            // What the customer pays, read under A (a term_days change in B could differ).
            let paid = a.customers.withActivity(at: position) { RevenueAtStake.subscriptions($0) }
            guard !paid.isEmpty else { continue }
            let from = classes.firstIndex(of: before.customerClass) ?? 0
            let key = from * classes.count + (classes.firstIndex(of: after.customerClass) ?? 0)
            var movement =
                moving[key]
                ?? Movement(
                    from: before.customerClass, to: after.customerClass, customers: 0,
                    figures: RevenueAtStake.Figures())
            movement.customers += 1
            movement.figures.customers += 1
            for (currency, price) in paid { movement.figures.byCurrency[currency, default: 0] += price }
            moving[key] = movement
        }
        flagsGained = gained.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        flagsLost = lost.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        movements = moving.sorted { $0.key < $1.key }.map(\.value)
    }
}
