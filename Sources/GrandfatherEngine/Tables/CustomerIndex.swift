/// Finds a customer's slot by the bytes of its id, without making a string: an
/// open-addressing table of 24-byte entries that carry 27 bits of the id's hash, its length,
/// its slot, and ids of up to 16 bytes themselves, so a lookup of a short id touches one
/// entry and nothing else.
///
/// Ids are compared by their exact bytes, i.e. code points: two spellings Unicode calls
/// equivalent (NFC and NFD "café") are different customers, as in any database.
public final class CustomerIndex {
    private static let maximumLoad = 0.8
    static let inlineLength = 16

    private struct Entry {
        /// 0 marks an empty place; else the high 27 bits of the id's hash and, in the low five,
        /// its length plus one, or 18 for a long id (`tag(hash:count:)`). The full hash is not
        /// kept: an id of up to 16 bytes is compared whole, a longer one by the caller, and
        /// 8 bytes less per entry is 8 MB less per million customers.
        var tag: UInt32
        var slot: Int32
        /// The id's bytes when it has at most 16, zero-padded.
        var low: UInt64
        var high: UInt64
    }

    /// What one entry takes.
    static let entryBytes = MemoryLayout<Entry>.stride

    // Used by one shard under its lock: no run-time exclusivity checks per lookup.
    @exclusivity(unchecked) private var entries: UnsafeMutablePointer<Entry>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private(set) var count = 0

    public init(capacity: Int = 1024) {
        self.capacity = capacity
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: Entry(tag: 0, slot: 0, low: 0, high: 0), count: capacity)
    }

    deinit {
        entries.deallocate()
    }

    /// Frees the table once lookups are done (the object may live on, empty).
    public func release() {
        entries.deallocate()
        capacity = 1
        count = 0
        entries = .allocate(capacity: capacity)
        entries.initialize(to: Entry(tag: 0, slot: 0, low: 0, high: 0))
    }

    /// The hash an id is filed under.
    public static func hash(_ id: UnsafeRawBufferPointer) -> UInt64 {
        var hash = StableHash()
        hash.combine(id)
        return max(hash.value, 1)
    }

    /// What an entry keeps of an id's hash and length; never 0.
    @inline(__always)
    private static func tag(hash: UInt64, count: Int) -> UInt32 {
        let length = count <= inlineLength ? UInt32(count) + 1 : UInt32(inlineLength) + 2
        return UInt32(truncatingIfNeeded: hash >> 32) & ~0x1F | length
    }

    /// Where a lookup of `hash` starts: multiply-shift of the 27 hash bits an entry keeps, so
    /// that growing can place entries again from their tags alone.
    @inline(__always)
    private static func home(hash: UInt64, capacity: Int) -> Int {
        Int(((hash >> 37) &* UInt64(capacity)) >> 27)
    }

    @inline(__always)
    private static func home(tag: UInt32, capacity: Int) -> Int {
        Int((UInt64(tag >> 5) &* UInt64(capacity)) >> 27)
    }

    /// The slot filed under `hash` for this id; `matches` compares a long id with a slot's.
    @inline(__always)
    public func find(hash: UInt64, id: UnsafeRawBufferPointer, matches: (Int32) -> Bool) -> Int32? {
        let short = id.count <= Self.inlineLength
        let (low, high) = short ? id.paddedWords : (0, 0)
        let tag = Self.tag(hash: hash, count: id.count)
        var place = Self.home(hash: hash, capacity: capacity)
        while entries[place].tag != 0 {
            let entry = entries[place]
            if entry.tag == tag {
                if short ? (entry.low == low && entry.high == high) : matches(entry.slot) { return entry.slot }
            }
            place += 1
            if place == capacity { place = 0 }
        }
        return nil
    }

    /// Reads the first entry a lookup of `hash` reads, so that it is in the cache when the
    /// lookup comes (see `Ledger.fold`); returns a word of it for the caller to keep.
    @inline(__always)
    public func touch(hash: UInt64) -> UInt64 {
        UInt64(entries[Self.home(hash: hash, capacity: capacity)].tag)
    }

    /// Files `slot` under `hash` (the caller checked the id is not there yet).
    public func insert(hash: UInt64, id: UnsafeRawBufferPointer, slot: Int32) {
        if Double(count + 1) > Double(capacity) * Self.maximumLoad { grow() }
        let (low, high) = id.count <= Self.inlineLength ? id.paddedWords : (0, 0)
        place(Entry(tag: Self.tag(hash: hash, count: id.count), slot: slot, low: low, high: high))
        count += 1
    }

    private func place(_ entry: Entry) {
        var place = Self.home(tag: entry.tag, capacity: capacity)
        while entries[place].tag != 0 {
            place += 1
            if place == capacity { place = 0 }
        }
        entries[place] = entry
    }

    private func grow() {
        let old = entries
        let oldCapacity = capacity
        capacity += capacity / 2
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: Entry(tag: 0, slot: 0, low: 0, high: 0), count: capacity)
        for index in 0..<oldCapacity where old[index].tag != 0 { place(old[index]) }
        old.deallocate()
    }
}
