/// A buffer of trivial values that grows by doubling; the owner deallocates it.
struct GrowableBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    var count = 0
    private var capacity: Int
    /// The alignment of `base`, kept as the buffer grows (a file written with `O_DIRECT`
    /// takes its bytes only from memory aligned to the disk's blocks).
    private let alignment: Int

    init(capacity: Int, alignment: Int = MemoryLayout<Element>.alignment) {
        self.capacity = capacity
        self.alignment = alignment
        base = Self.allocate(capacity, alignment: alignment)
    }

    private static func allocate(_ capacity: Int, alignment: Int) -> UnsafeMutablePointer<Element> {
        guard alignment > MemoryLayout<Element>.alignment else { return .allocate(capacity: capacity) }
        // `deallocate` frees it as any other: the runtime frees memory of unknown alignment
        // as aligned memory.
        return UnsafeMutableRawPointer.allocate(
            byteCount: capacity * MemoryLayout<Element>.stride, alignment: alignment
        )
        .bindMemory(to: Element.self, capacity: capacity)
    }

    subscript(index: Int) -> Element {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    mutating func append(_ value: Element) {
        if count == capacity { grow(to: count + 1) }
        (base + count).initialize(to: value)
        count += 1
    }

    mutating func removeAll() { count = 0 }

    /// Elements that fit after `count` before the buffer must grow.
    var room: Int { capacity - count }

    /// Grows to hold at least `needed` elements, moving the `count` elements and the `extra`
    /// initialised ones after them.
    mutating func reserve(_ needed: Int, keeping extra: Int) {
        guard needed > capacity else { return }
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = Self.allocate(newCapacity, alignment: alignment)
        newBase.moveInitialize(from: base, count: count + extra)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    func deallocate() { base.deallocate() }

    /// Frees the elements' memory, leaving an empty buffer (which the owner still deallocates):
    /// `removeAll` keeps the capacity.
    mutating func release() {
        base.deallocate()
        base = Self.allocate(1, alignment: alignment)
        capacity = 1
        count = 0
    }

    mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = Self.allocate(newCapacity, alignment: alignment)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}

extension GrowableBuffer where Element == UInt8 {
    mutating func append(_ data: UnsafeRawPointer, count length: Int) {
        if count + length > capacity { grow(to: count + length) }
        let target = UnsafeMutableRawPointer(base + count)
        if length <= 32 {
            // Most fields are short: a call to memmove costs more than copying them here.
            var offset = 0
            while offset + 8 <= length {
                target.storeBytes(
                    of: data.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset,
                    as: UInt64.self)
                offset += 8
            }
            // The last 0–7 bytes in at most three moves.
            if length - offset >= 4 {
                target.storeBytes(
                    of: data.loadUnaligned(fromByteOffset: offset, as: UInt32.self), toByteOffset: offset,
                    as: UInt32.self)
                offset += 4
            }
            if length - offset >= 2 {
                target.storeBytes(
                    of: data.loadUnaligned(fromByteOffset: offset, as: UInt16.self), toByteOffset: offset,
                    as: UInt16.self)
                offset += 2
            }
            if offset < length {
                target.storeBytes(
                    of: data.load(fromByteOffset: offset, as: UInt8.self), toByteOffset: offset, as: UInt8.self)
            }
        } else {
            target.copyMemory(from: data, byteCount: length)
        }
        count += length
    }
}

/// Physical line breaks (LF, CRLF, a lone CR) in field bytes.
enum LineBreaks {
    /// A word-at-a-time test for LF or CR bytes; false means certainly none.
    @inline(__always)
    static func mayContain(_ data: UnsafeRawPointer, _ length: Int) -> Bool {
        var offset = 0
        while offset + 8 <= length {
            let word = data.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if ASCII.word(word, holds: 0x0A) || ASCII.word(word, holds: 0x0D) { return true }
            offset += 8
        }
        while offset < length {
            let byte = data.load(fromByteOffset: offset, as: UInt8.self)
            if byte == 0x0A || byte == 0x0D { return true }
            offset += 1
        }
        return false
    }

    /// Counts line breaks, a CRLF counting once.
    static func count(_ data: UnsafeRawPointer, _ length: Int) -> Int {
        var breaks = 0
        var previous: UInt8 = 0
        for offset in 0..<length {
            let byte = data.load(fromByteOffset: offset, as: UInt8.self)
            if byte == 0x0D || (byte == 0x0A && previous != 0x0D) { breaks += 1 }
            previous = byte
        }
        return breaks
    }
}
