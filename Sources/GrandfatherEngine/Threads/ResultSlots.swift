/// One slot per concurrent job, each written by its own job only, read after all finished.
public final class ResultSlots<Value: Sendable, Failure: EngineFailure>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Result<Value, Failure>?>
    private let count: Int

    public init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil, count: count)
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// Distinct jobs write distinct slots of storage allocated up front: no two touch one.
    public func store(_ index: Int, _ result: Result<Value, Failure>) {
        slots[index] = result
    }

    /// Moves a job's result out: the slot holds nothing after, so a large result (a range's
    /// rows, its deliveries) is freed when its taker lets go, not when the slots go.
    public func take(_ index: Int) throws(Failure) -> Value {
        guard let result = slots[index] else { throw Failure(.internal("a parsing job produced nothing")) }
        slots[index] = nil
        return try result.get()
    }
}
