import Testing

@testable import GrandfatherCore

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
