import GrandfatherEngine

/// Customers per original app version on each platform, against the platform's cutover
/// version: the evidence the version basis decides on.
struct VersionCounts: Sendable {
    /// Versions shown per platform; the rest are summed into one bar.
    static let shown = 24

    /// Each platform's versions with their counts, found through `places`: an open-addressing
    /// table by a stable hash of the version's bytes. A `Dictionary` of strings hashed every
    /// customer's version with SipHash, a tenth of the report page's time at a million.
    private var entries: [(platform: Platform, version: String, count: Int)] = []
    private var hashes: [UInt64] = []
    /// Index into `entries` plus one, 0 for an empty place; the count is a power of two.
    private var places = [Int32](repeating: 0, count: 64)

    mutating func add(_ version: String, platform: Platform) {
        var hasher = StableHash()
        hasher.combine(UInt64(platform.index))
        hasher.combine(version)
        let hash = hasher.value
        let mask = places.count - 1
        var place = Int(truncatingIfNeeded: hash >> 32) & mask
        while places[place] != 0 {
            let entry = Int(places[place]) - 1
            if hashes[entry] == hash, entries[entry].platform == platform,
                entries[entry].version.codePointEquals(version)
            {
                entries[entry].count += 1
                return
            }
            place = (place + 1) & mask
        }
        entries.append((platform, version, 1))
        hashes.append(hash)
        places[place] = Int32(entries.count)
        if entries.count * 2 > places.count { grow() }
    }

    private mutating func grow() {
        places = [Int32](repeating: 0, count: places.count * 2)
        let mask = places.count - 1
        for (entry, hash) in hashes.enumerated() {
            var place = Int(truncatingIfNeeded: hash >> 32) & mask
            while places[place] != 0 { place = (place + 1) & mask }
            places[place] = Int32(entry + 1)
        }
    }

    /// One chart per platform that has versions, in platform order.
    func charts(cutover: Cutover) -> [(Platform, Chart)] {
        // Versions are told apart by their code points, as ids are (SPEC §8.25).
        var counts = [[(key: String, value: Int)]](repeating: [], count: Platform.allCases.count)
        for entry in entries { counts[entry.platform.index].append((entry.version, entry.count)) }
        return Platform.allCases.compactMap { platform in
            let versions = counts[platform.index]
            guard !versions.isEmpty else { return nil }
            let cutoverVersion = cutover.version(for: platform)
            // The most common versions, shown in version order (text order when unparseable).
            let common = versions.sorted {
                $0.value != $1.value ? $0.value > $1.value : $0.key.codePointPrecedes($1.key)
            }
            .prefix(Self.shown)
            let ordered = common.sorted { Self.precedes($0.key, $1.key) }
            var rows = ordered.map { version, count -> (label: String, value: Int, style: String) in
                let lower = cutoverVersion.flatMap { AppVersion.compare(version, with: $0)?.lower }
                return (version, count, lower == nil ? "unknown" : lower == true ? "before" : "after")
            }
            let others = versions.count - ordered.count
            if others > 0 {
                let rest = versions.reduce(0) { $0 + $1.value } - ordered.reduce(0) { $0 + $1.value }
                rows.append(("\(others) other versions", rest, "unknown"))
            }
            let against = cutoverVersion.map { "cutover \($0.text)" } ?? "no cutover version"
            return (
                platform, Chart.bars(rows, caption: "\(platform.rawValue): customers per original version (\(against))")
            )
        }
    }

    private static func precedes(_ left: String, _ right: String) -> Bool {
        switch (AppVersion(left), AppVersion(right)) {
        case (let a?, let b?) where a != b: return a < b
        case (.some, nil): return true
        case (nil, .some): return false
        default: return left.codePointPrecedes(right)
        }
    }
}
