import Dispatch
import Foundation

/// Data-parallel helpers for the per-customer passes (classification, sorting), split into
/// one contiguous part per core.
public enum Parallel {
    static var width: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// `transform` applied to 0..<count, in order.
    /// Each part is written in place: built apart and joined, the parts and the result were
    /// both alive (80 MB of sort keys twice at 5M customers).
    public static func map<Value: Sendable>(count: Int, _ transform: @Sendable (Int) -> Value) -> [Value] {
        let parts = count < 10_000 ? 1 : width
        return [Value](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let target = UncheckedPointer(base)
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                for index in bounds(part, of: parts, count: count) {
                    (target.pointer + index).initialize(to: transform(index))
                }
            }
            initialized = count
        }
    }

    /// `transform` applied to each part of 0..<count (one per core), parts in order.
    public static func mapParts<Value: Sendable>(count: Int, _ transform: @Sendable (Range<Int>) -> Value) -> [Value] {
        let parts = count < 10_000 ? 1 : width
        let slots = ResultSlots<Value, EngineError>(count: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            slots.store(part, .success(transform(bounds(part, of: parts, count: count))))
        }
        return (0..<parts).compactMap { try? slots.take($0) }
    }

    /// `values` sorted by `precedes`: parts sorted in place at once, then merged.
    static func sorted<Value: Sendable>(
        _ values: consuming [Value], by precedes: @escaping @Sendable (Value, Value) -> Bool
    ) -> [Value] {
        sorted(values, by: precedes) { $0 }
    }

    /// `values` sorted by `precedes`, each then `transform`ed: parts sorted in place at once,
    /// then merged in one pass straight into the results. So besides the values only the
    /// results are alive (merged into new arrays of values, with each part copied out first,
    /// four copies of the sort keys were: 240 MB at 5M customers, the classify step's peak).
    public static func sorted<Value: Sendable, Output>(
        _ values: consuming [Value], by precedes: @escaping @Sendable (Value, Value) -> Bool,
        then transform: (Value) -> Output
    ) -> [Output] {
        var values = values
        let count = values.count
        let parts = count < 10_000 ? 1 : width
        return values.withUnsafeMutableBufferPointer { buffer -> [Output] in
            guard let base = buffer.baseAddress else { return [] }
            let whole = UncheckedPointer(base)
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let range = bounds(part, of: parts, count: count)
                var run = UnsafeMutableBufferPointer(start: whole.pointer + range.lowerBound, count: range.count)
                run.sort(by: precedes)
            }
            // What is left of each sorted part: the least of their first values comes next
            // (on a tie, the earlier part's).
            var heads = (0..<parts).map { bounds($0, of: parts, count: count) }
            return [Output](unsafeUninitializedCapacity: count) { target, initialized in
                for out in 0..<count {
                    var least = -1
                    for part in heads.indices where !heads[part].isEmpty {
                        if least < 0 || precedes(base[heads[part].lowerBound], base[heads[least].lowerBound]) {
                            least = part
                        }
                    }
                    target.initializeElement(at: out, to: transform(base[heads[least].lowerBound]))
                    heads[least] = heads[least].dropFirst()
                }
                initialized = count
            }
        }
    }

    private static func bounds(_ part: Int, of parts: Int, count: Int) -> Range<Int> {
        (count * part / parts)..<(count * (part + 1) / parts)
    }
}

/// An array's elements lent read-only to the jobs of one `concurrentPerform`, valid inside
/// the `withUnsafeBufferPointer` that made it: jobs read elements in place instead of
/// copying them (a copy retains and releases every reference an element holds).
public struct LentBuffer<Element: Sendable>: @unchecked Sendable {
    let elements: UnsafeBufferPointer<Element>

    public init(_ elements: UnsafeBufferPointer<Element>) {
        self.elements = elements
    }

    /// Where element `index` lies: its fields can be read there without copying it.
    public func element(_ index: Int) -> UnsafePointer<Element> {
        precondition(index >= 0 && index < elements.count, "element \(index) of \(elements.count)")
        return elements.baseAddress.unsafelyUnwrapped + index
    }
}

/// A pointer handed to the jobs of one `concurrentPerform`, each writing its own region.
public struct UncheckedPointer<Value>: @unchecked Sendable {
    public let pointer: UnsafeMutablePointer<Value>

    public init(_ pointer: UnsafeMutablePointer<Value>) {
        self.pointer = pointer
    }
}
