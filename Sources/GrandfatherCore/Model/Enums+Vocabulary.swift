import GrandfatherEngine

// The closed vocabularies of Model/Enums.swift as a row's bytes spell them; the matching is
// the engine's `Spellings`, and `FieldReader` reads a field against them.

/// A closed vocabulary read from bytes case-insensitively (SPEC §8.4).
protocol Vocabulary: RawRepresentable, CaseIterable, Sendable where RawValue == String {
    /// Each value's spelling, built once (`allCases` would allocate on every call).
    static var spellings: Spellings<Self> { get }
}

extension Vocabulary {
    static func makeSpellings() -> Spellings<Self> {
        Spellings(allCases.map { ($0.rawValue, $0) })
    }
}

extension Platform: Vocabulary { static let spellings = makeSpellings() }
extension Environment: Vocabulary { static let spellings = makeSpellings() }
extension ProductType: Vocabulary { static let spellings = makeSpellings() }
extension OwnershipType: Vocabulary { static let spellings = makeSpellings() }
extension RenewalState: Vocabulary { static let spellings = makeSpellings() }
