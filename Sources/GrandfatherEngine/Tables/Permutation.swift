/// Arrays rearranged in place by a permutation.
public enum Permutation {
    /// Rearranges `first` and `second` (of one length) in place so that the element at each
    /// index `i` is the one that was at `order[i]`, cycle by cycle, each element moved once
    /// and nothing copied.
    ///
    /// In place, because moving into new arrays held both at once: at a million customers
    /// their records and activities are 128 MB, and the copies were the run's peak.
    public static func apply<First, Second>(_ order: [Int32], to first: inout [First], and second: inout [Second]) {
        let count = order.count
        precondition(first.count == count && second.count == count, "a permutation of \(count) places")
        var placed = [Bool](repeating: false, count: count)
        first.withUnsafeMutableBufferPointer { first in
            second.withUnsafeMutableBufferPointer { second in
                guard let a = first.baseAddress, let b = second.baseAddress else { return }
                for start in 0..<count where !placed[start] {
                    placed[start] = true
                    var index = start
                    var next = Int(order[start])
                    guard next != start else { continue }
                    // The cycle start → order[start] → …: each place takes the element its
                    // order names, and the last takes the one the start held.
                    let heldFirst = (a + start).move()
                    let heldSecond = (b + start).move()
                    while next != start {
                        (a + index).moveInitialize(from: a + next, count: 1)
                        (b + index).moveInitialize(from: b + next, count: 1)
                        placed[next] = true
                        index = next
                        next = Int(order[next])
                    }
                    (a + index).initialize(to: heldFirst)
                    (b + index).initialize(to: heldSecond)
                }
            }
        }
    }
}
