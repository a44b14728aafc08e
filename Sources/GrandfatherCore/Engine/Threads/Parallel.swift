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

    /// `values` sorted by `precedes`: parts sorted in place at once, then merged, so that
    /// at most two copies of the values are alive at any time (each part copied out before
    /// its sort, and the merges, held four: 240 MB of sort keys at 5M customers).
    static func sorted<Value: Sendable>(
        _ values: consuming [Value], by precedes: @escaping @Sendable (Value, Value) -> Bool
    ) -> [Value] {
        var values = values
        let count = values.count
        let parts = count < 10_000 ? 1 : width
        values.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let whole = UncheckedPointer(base)
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let range = bounds(part, of: parts, count: count)
                var run = UnsafeMutableBufferPointer(start: whole.pointer + range.lowerBound, count: range.count)
                run.sort(by: precedes)
            }
        }
        // Merge the sorted runs, the first with the second, the result with the third, ….
        var sortedEnd = bounds(0, of: parts, count: count).upperBound
        for part in 1..<max(parts, 1) {
            let next = bounds(part, of: parts, count: count)
            let merged = [Value](unsafeUninitializedCapacity: next.upperBound) { target, initialized in
                var left = 0
                var right = next.lowerBound
                var out = 0
                while left < sortedEnd, right < next.upperBound {
                    if precedes(values[right], values[left]) {
                        target.initializeElement(at: out, to: values[right])
                        right += 1
                    } else {
                        target.initializeElement(at: out, to: values[left])
                        left += 1
                    }
                    out += 1
                }
                while left < sortedEnd {
                    target.initializeElement(at: out, to: values[left])
                    left += 1
                    out += 1
                }
                while right < next.upperBound {
                    target.initializeElement(at: out, to: values[right])
                    right += 1
                    out += 1
                }
                initialized = out
            }
            if next.upperBound == count {
                values = merged
            } else {
                values.replaceSubrange(0..<next.upperBound, with: merged)
            }
            sortedEnd = next.upperBound
        }
        return values
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
