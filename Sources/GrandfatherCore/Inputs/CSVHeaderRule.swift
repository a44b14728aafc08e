import GrandfatherEngine

/// The rule every CSV reader holds a header to, canonical or a store's export: each column
/// is named once. A file that names one twice is refused whole, since which of its values a
/// row means would be a guess (the first, as one reader took it, or the last, as another did).
enum CSVHeaderRule {
    /// Refuses `header` when it names a column twice (empty names aside: unnamed columns
    /// are read past).
    static func checkEachNamedOnce(_ header: [String], path: String) throws(GrandfatherError) {
        var seen = Set<String>()
        for name in header where !name.isEmpty && !seen.insert(name).inserted {
            throw .input(file: path, line: 1, message: "column \"\(Excerpt.of(name))\" appears twice in the header")
        }
    }
}
