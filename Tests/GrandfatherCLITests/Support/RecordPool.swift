import Foundation

/// SplitMix64: a small seeded generator, so that a draw's seed reproduces its files.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The records of one kind of file a source reads, taken from the sample's files of that kind,
/// and the forms a piece of them can be written in.
struct RecordPool {
    /// One way of writing records as a file the source reads.
    struct Form: Sendable {
        /// The file name's extension, without the dot.
        let fileExtension: String
        let write: @Sendable ([String]) -> String
    }

    /// A name for the pool's pieces (`transactions`, `notifications`).
    let stem: String
    /// The sample's files the records come from, under `sample-data/`.
    let originals: [String]
    /// Each record as written in its file: a CSV line, a JSON line, an array element.
    private(set) var records: [String]
    /// The forms a piece may take; the first is the originals' own.
    let forms: [Form]
    /// Where SPEC lets the first of several rows win (§8.7: a repeated customer id), the key
    /// that names them: records of one key keep their order, and so do the pool's pieces.
    var firstWins: ((String) -> String)? = nil
    /// A file that is a unit (a sales report: its rows are counts): its rows are permuted, it is
    /// never split, and it is repeated only as whole copies of its bytes.
    var isUnit = false
    /// Records the test adds to the sample's (the last of `records`), given to the run on the
    /// sample's files as one more file in the first form.
    var extras: [String] = []

    /// The pool with `records` added (`extras`).
    func adding(_ records: [String]) -> RecordPool {
        var pool = self
        pool.records += records
        pool.extras += records
        return pool
    }

    /// The pool, its records of one key kept in order (`firstWins`).
    func firstWins(by key: @escaping (String) -> String) -> RecordPool {
        var pool = self
        pool.firstWins = key
        return pool
    }

    /// The pool, as a file that is a unit (`isUnit`).
    func unit() -> RecordPool {
        var pool = self
        pool.isUnit = true
        return pool
    }

    /// A CSV or TSV file: its first line is the header every piece keeps.
    static func delimited(_ stem: String, _ originals: [String], fileExtension: String = "csv") throws -> RecordPool {
        var header: String?
        var records: [String] = []
        for name in originals {
            let lines = try SampleFiles.text(name).split(separator: "\n", omittingEmptySubsequences: true)
            header = header ?? lines.first.map(String.init)
            precondition(lines.first.map(String.init) == header, "\(name) has another header")
            records += lines.dropFirst().map(String.init)
        }
        let first = header ?? ""
        return RecordPool(
            stem: stem, originals: originals, records: records,
            forms: [Form(fileExtension: fileExtension) { first + "\n" + $0.map { $0 + "\n" }.joined() }])
    }

    /// JSON Lines, one record a line; `asArray` when the source reads a JSON array of them too.
    static func jsonLines(_ stem: String, _ originals: [String], asArray: Bool) throws -> RecordPool {
        var records: [String] = []
        for name in originals {
            records += try SampleFiles.text(name).split(separator: "\n").map(String.init)
        }
        return RecordPool(
            stem: stem, originals: originals, records: records, forms: asArray ? [.lines, .array] : [.lines])
    }

    /// A JSON array's elements; `asLines` when the source reads them as JSON Lines too.
    static func jsonArray(_ stem: String, _ original: String, asLines: Bool) throws -> RecordPool {
        RecordPool(
            stem: stem, originals: [original], records: JSONSlices.elements(try SampleFiles.text(original)),
            forms: asLines ? [.array, .lines] : [.array])
    }
}

extension RecordPool.Form {
    /// One record a line, a record written over several lines joined onto one (a JSON text
    /// holds no line break inside a string).
    static let lines = Self(fileExtension: "jsonl") { records in
        records.map { $0.replacingOccurrences(of: "\n", with: " ") + "\n" }.joined()
    }

    /// A JSON array of the records.
    static let array = Self(fileExtension: "json", write: JSONSlices.array)
}

/// The sample's files, read as the tests' inputs.
enum SampleFiles {
    static func url(_ name: String) -> URL { SampleData.folder.appendingPathComponent(name) }

    static func text(_ name: String) throws -> String {
        try String(decoding: data(name), as: UTF8.self)
    }

    /// A file's bytes, inflated when it is gzipped.
    static func data(_ name: String) throws -> Data {
        guard name.hasSuffix(".gz") else { return try Data(contentsOf: url(name)) }
        return try gzip(["-d", "-c", url(name).path], input: nil)
    }

    /// `bytes` as one gzip member.
    static func gzipped(_ bytes: Data) throws -> Data { try gzip(["-n", "-c"], input: bytes) }

    private static func gzip(_ arguments: [String], input: Data?) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip"] + arguments
        let output = Pipe()
        process.standardOutput = output
        let feed = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : feed
        try process.run()
        if let input {
            // Small files only: written whole before the output is read.
            try feed.fileHandleForWriting.write(contentsOf: input)
            try feed.fileHandleForWriting.close()
        }
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "gzip \(arguments) failed")
        return bytes
    }
}

/// One draw's inputs: each pool's records permuted, some repeated and split into pieces, and
/// every input's place among the arguments shuffled.
struct DrawnInputs {
    struct File {
        let name: String
        let bytes: Data
    }

    /// The files to write, in argument order (context files are named, not written).
    var arguments: [String] = []
    var files: [File] = []
    /// What the draw did, one line a pool, for a failure's message.
    var description: [String] = []

    init(pools: [RecordPool], context: [String], seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        // Each input's group: nil for one that may go anywhere, a pool's index for the pieces of
        // a pool whose pieces must keep their order.
        var inputs: [(name: String, group: Int?)] = context.map { ($0, nil) }
        for (index, pool) in pools.enumerated() {
            let pieces =
                pool.isUnit
                ? try unitCopies(pool, index: index, random: &random)
                : pieces(pool, index: index, random: &random)
            inputs += pieces.map { ($0, pool.firstWins == nil ? nil : index) }
        }
        inputs.shuffle(using: &random)
        for group in Set(inputs.compactMap(\.group)) {
            let places = inputs.indices.filter { inputs[$0].group == group }
            let names = places.map { inputs[$0].name }.sorted { Self.pieceNumber($0) < Self.pieceNumber($1) }
            for (place, name) in zip(places, names) { inputs[place].name = name }
        }
        arguments = inputs.map(\.name)
    }

    /// The number a piece's name starts with after its pool's (`p0-3-…` is piece 3).
    private static func pieceNumber(_ name: String) -> Int {
        Int(name.split(separator: "-")[1]) ?? 0
    }

    /// The pool's records, some repeated, permuted and cut into 1 to 4 pieces, each written in
    /// one of the pool's forms; returns the pieces' names.
    private mutating func pieces(_ pool: RecordPool, index: Int, random: inout SeededGenerator) -> [String] {
        // Copies: most records once, some twice or three times, and at least one repeated.
        var copies = pool.records.map { _ in
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<7: 1
            case 7..<9: 2
            default: 3
            }
        }
        if copies.allSatisfy({ $0 == 1 }) { copies[Int.random(in: copies.indices, using: &random)] = 2 }
        var sequence: [Int] = []
        for (record, count) in copies.enumerated() { sequence += Array(repeating: record, count: count) }
        if let key = pool.firstWins {
            // Shuffle the keys' places, then give each key's records in their own order.
            let keys = sequence.map { key(pool.records[$0]) }
            var places = keys
            places.shuffle(using: &random)
            var queues: [String: [Int]] = [:]
            for (record, name) in zip(sequence, keys) { queues[name, default: []].append(record) }
            var taken: [String: Int] = [:]
            sequence = places.map { name in
                let position = taken[name, default: 0]
                taken[name] = position + 1
                return queues[name, default: []][position]
            }
        } else {
            sequence.shuffle(using: &random)
        }
        let count = Int.random(in: 1...min(4, sequence.count), using: &random)
        var cuts = Array(
            (1..<sequence.count).shuffled(using: &random).prefix(count - 1)
        ).sorted()
        cuts = [0] + cuts + [sequence.count]
        var names: [String] = []
        var layout: [String] = []
        for piece in 0..<count {
            let form = pool.forms.randomElement(using: &random) ?? pool.forms[0]
            let records = sequence[cuts[piece]..<cuts[piece + 1]].map { pool.records[$0] }
            let name = "p\(index)-\(piece)-\(pool.stem).\(form.fileExtension)"
            files.append(File(name: name, bytes: Data(form.write(records).utf8)))
            names.append(name)
            layout.append(sequence[cuts[piece]..<cuts[piece + 1]].map(String.init).joined(separator: ","))
        }
        description.append("\(pool.stem): records by index \(layout.map { "[\($0)]" }.joined(separator: " "))")
        return names
    }

    /// A unit's rows permuted, written once and given again as 0 to 2 copies of the same bytes,
    /// plain or gzipped; returns the copies' names.
    private mutating func unitCopies(_ pool: RecordPool, index: Int, random: inout SeededGenerator) throws
        -> [String]
    {
        let order = pool.records.indices.shuffled(using: &random)
        let bytes = Data(pool.forms[0].write(order.map { pool.records[$0] }).utf8)
        let base = (pool.originals.first ?? pool.stem).split(separator: "/").last.map(String.init) ?? pool.stem
        let plain = base.hasSuffix(".gz") ? String(base.dropLast(3)) : base
        var names = ["p\(index)-0-\(plain)"]
        files.append(File(name: names[0], bytes: bytes))
        for copy in 0..<Int.random(in: 0...2, using: &random) {
            let gzipped = Bool.random(using: &random)
            let name = "p\(index)-\(copy + 1)-\(plain)" + (gzipped ? ".gz" : "")
            files.append(File(name: name, bytes: gzipped ? try SampleFiles.gzipped(bytes) : bytes))
            names.append(name)
        }
        description.append("\(plain): rows by index \(order), \(names.count) copies")
        return names
    }
}
