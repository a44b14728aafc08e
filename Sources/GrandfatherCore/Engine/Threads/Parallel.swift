import Dispatch
import Foundation

/// Data-parallel helpers for the per-customer passes (classification, sorting), split into
/// one contiguous part per core.
enum Parallel {
    static var width: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// `transform` applied to 0..<count, in order.
    static func map<Value: Sendable>(count: Int, _ transform: @Sendable (Int) -> Value) -> [Value] {
        let parts = count < 10_000 ? 1 : width
        let slots = ResultSlots<[Value]>(count: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let range = bounds(part, of: parts, count: count)
            slots.store(part, .success(range.map(transform)))
        }
        var result: [Value] = []
        result.reserveCapacity(count)
        for part in 0..<parts { result.append(contentsOf: (try? slots.take(part)) ?? []) }
        return result
    }

    /// `transform` applied to each part of 0..<count (one per core), parts in order.
    static func mapParts<Value: Sendable>(count: Int, _ transform: @Sendable (Range<Int>) -> Value) -> [Value] {
        let parts = count < 10_000 ? 1 : width
        let slots = ResultSlots<Value>(count: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            slots.store(part, .success(transform(bounds(part, of: parts, count: count))))
        }
        return (0..<parts).compactMap { try? slots.take($0) }
    }

    /// `values` sorted by `precedes`: parts sorted at once, then merged.
    static func sorted<Value: Sendable>(
        _ values: [Value], by precedes: @escaping @Sendable (Value, Value) -> Bool
    ) -> [Value] {
        let parts = values.count < 10_000 ? 1 : width
        let slots = ResultSlots<[Value]>(count: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            var sorted = Array(values[bounds(part, of: parts, count: values.count)])
            sorted.sort(by: precedes)
            slots.store(part, .success(sorted))
        }
        var merged = (try? slots.take(0)) ?? []
        for part in 1..<max(parts, 1) {
            let next = (try? slots.take(part)) ?? []
            var result: [Value] = []
            result.reserveCapacity(merged.count + next.count)
            var left = 0
            var right = 0
            while left < merged.count, right < next.count {
                if precedes(next[right], merged[left]) {
                    result.append(next[right])
                    right += 1
                } else {
                    result.append(merged[left])
                    left += 1
                }
            }
            result.append(contentsOf: merged[left...])
            result.append(contentsOf: next[right...])
            merged = result
        }
        return merged
    }

    private static func bounds(_ part: Int, of parts: Int, count: Int) -> Range<Int> {
        (count * part / parts)..<(count * (part + 1) / parts)
    }
}

/// An array's elements lent read-only to the jobs of one `concurrentPerform`, valid inside
/// the `withUnsafeBufferPointer` that made it: jobs read elements in place instead of
/// copying them (a copy retains and releases every reference an element holds).
struct LentBuffer<Element: Sendable>: @unchecked Sendable {
    let elements: UnsafeBufferPointer<Element>

    init(_ elements: UnsafeBufferPointer<Element>) {
        self.elements = elements
    }

    /// Where element `index` lies: its fields can be read there without copying it.
    func element(_ index: Int) -> UnsafePointer<Element> {
        precondition(index >= 0 && index < elements.count, "element \(index) of \(elements.count)")
        return elements.baseAddress.unsafelyUnwrapped + index
    }
}

/// A pointer handed to the jobs of one `concurrentPerform`, each writing its own region.
struct UncheckedPointer<Value>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Value>

    init(_ pointer: UnsafeMutablePointer<Value>) {
        self.pointer = pointer
    }
}
