/// A short list built in stack space, for lists made per customer a million times over (a
/// customer's grants, for every report and the snapshot), where an array would allocate and
/// free each time.
///
/// Valid only inside the `with` call that made it: the list and its `elements` point into
/// that call's temporary allocation.
public struct ScratchList<Element: BitwiseCopyable> {
    private let places: UnsafeMutableBufferPointer<Element>
    private(set) var count = 0

    private init(places: UnsafeMutableBufferPointer<Element>) {
        self.places = places
    }

    /// Calls `body` with an empty list that has room for `capacity` elements.
    public static func with<Result>(capacity: Int, _ body: (inout ScratchList) throws -> Result) rethrows -> Result {
        try withUnsafeTemporaryAllocation(of: Element.self, capacity: max(capacity, 1)) { places in
            var list = ScratchList(places: places)
            return try body(&list)
        }
    }

    subscript(index: Int) -> Element {
        get { places[index] }
        set { places[index] = newValue }
    }

    /// Inserts `element` at `position`, moving the ones from there up by one.
    mutating func insert(_ element: Element, at position: Int) {
        precondition(count < places.count, "a scratch list holds at most its capacity")
        var index = count
        while index > position {
            places[index] = places[index - 1]
            index -= 1
        }
        places[position] = element
        count += 1
    }

    /// Adds `element` at the end.
    public mutating func append(_ element: Element) {
        precondition(count < places.count, "a scratch list holds at most its capacity")
        places[count] = element
        count += 1
    }

    /// Sorts the elements by `areInIncreasingOrder`, then folds each run of neighbours that
    /// neither precedes into its first element with `fold`: one sort, where inserting each in
    /// place took the square of a long list's length.
    public mutating func sortFoldingRepeats(
        by areInIncreasingOrder: (Element, Element) -> Bool, fold: (inout Element, Element) -> Void
    ) {
        guard count > 1 else { return }
        var used = UnsafeMutableBufferPointer(rebasing: places[0..<count])
        used.sort(by: areInIncreasingOrder)
        var kept = 0
        for index in 1..<count {
            if areInIncreasingOrder(places[kept], places[index]) {
                kept += 1
                places[kept] = places[index]
            } else {
                fold(&places[kept], places[index])
            }
        }
        count = kept + 1
    }

    /// The elements, in order.
    public var elements: ScratchElements<Element> {
        ScratchElements(base: UnsafeBufferPointer(rebasing: places[0..<count]))
    }
}

/// The elements of a `ScratchList`, read-only, valid where the list is.
public struct ScratchElements<Element: BitwiseCopyable>: RandomAccessCollection {
    fileprivate let base: UnsafeBufferPointer<Element>

    public var startIndex: Int { 0 }
    public var endIndex: Int { base.count }

    public subscript(position: Int) -> Element { base[position] }
}
