/// Customers per original app version on each platform, against the platform's cutover
/// version: the evidence the version basis decides on.
struct VersionCounts: Sendable {
    /// Versions shown per platform; the rest are summed into one bar.
    static let shown = 24

    /// Per platform, in `Platform.allCases` order: the outer table costs no lookup per customer.
    private var counts = [[String: Int]](repeating: [:], count: Platform.allCases.count)

    mutating func add(_ version: String, platform: Platform) {
        counts[platform.index][version, default: 0] += 1
    }

    /// One chart per platform that has versions, in platform order.
    func charts(cutover: Cutover) -> [(Platform, Chart)] {
        Platform.allCases.compactMap { platform in
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
                let rest = versions.values.reduce(0, +) - ordered.reduce(0) { $0 + $1.value }
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
