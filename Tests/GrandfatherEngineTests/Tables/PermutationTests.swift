import GrandfatherTestSupport
import Testing

@testable import GrandfatherEngine

/// Rearranging in place gives what building new arrays from the order gives.
struct PermutationTests {
    @Test("in place, each place takes the element its order names", arguments: [0, 1, 2, 7, 1000, 20_000])
    func matchesACopy(count: Int) {
        var generator = SystemRandomNumberGenerator()
        let order = (0..<Int32(count)).shuffled(using: &generator)
        let strings = (0..<count).map { "customer \($0)" }
        let numbers = (0..<count).map { $0 * 3 }
        var first = strings
        var second = numbers
        Permutation.apply(order, to: &first, and: &second)
        #expect(first == order.map { strings[Int($0)] })
        #expect(second == order.map { numbers[Int($0)] })
    }

    @Test("the identity and one long cycle")
    func shapes() {
        var first = ["a", "b", "c", "d"]
        var second = [1, 2, 3, 4]
        Permutation.apply([0, 1, 2, 3], to: &first, and: &second)
        #expect(first == ["a", "b", "c", "d"] && second == [1, 2, 3, 4])
        Permutation.apply([1, 2, 3, 0], to: &first, and: &second)
        #expect(first == ["b", "c", "d", "a"] && second == [2, 3, 4, 1])
    }
}

/// The parallel sort gives what a plain sort gives, strings included (sorted in place, merged).
struct ParallelSortTests {
    @Test("sorted in parts and merged: the same as one sort", arguments: [0, 1, 9_999, 10_000, 25_001])
    func matchesSort(count: Int) {
        var generator = SplitMix(seed: UInt64(count))
        let values = (0..<count).map { _ in "id-\(generator.next() % 5_000)" }
        #expect(Parallel.sorted(values) { $0 < $1 } == values.sorted())
    }
}
