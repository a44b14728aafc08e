import GrandfatherEngine

/// How one file's rows become SPEC §2's rows through its mapping (issue 52): for each field
/// of the kind, where its text comes from (a column, a constant) and how it is rewritten (a
/// spelling, a time form). A value the mapping does not cover rejects its row, with the field
/// and the reason; the canonical rules then judge what it gives as any row's values.
struct MappedRowTranslator: Sendable {
    /// Where a field's text comes from.
    enum Origin: Sendable, Equatable {
        /// The column at this place of the file's header (or keys).
        case column(Int)
        case constant(String)
        case absent
    }

    struct Field: Sendable {
        var name: String
        var origin: Origin
        /// Spelling → canonical value, for a field with named values the mapping spells.
        var spellings: [String: String]?
        /// The canonical values of a field with named values.
        var allowed: Set<String>?
        var time: (form: TimeForm, zone: WallClockZone?)?
    }

    /// Why a row is not taken: the field at fault, its column's place, the reason.
    struct Rejection: Error, Equatable {
        var field: String
        var column: Int?
        var reason: String
    }

    /// One per field of the kind, in field order (a `RawRow`'s spans).
    let fields: [Field]
    /// Each field's 1-based column in the file, 0 for a constant or an absent field: taken
    /// once, not per row.
    let columns: [Int]

    /// The translator of `file`'s rows, whose header (or keys) is `columns`; a mapped column
    /// the file lacks is a usage error naming the mapping, the file and the field.
    init(_ file: Mapping.File, at index: Int, of mapping: Mapping, columns: [String], path: String)
        throws(GrandfatherError)
    {
        fields = try MappedVocabulary.fields(of: file.kind).map { field throws(GrandfatherError) in
            var origin = Origin.absent
            if let constant = file.constants[field.name] {
                origin = .constant(constant)
            } else if let column = file.columns[field.name] {
                guard let place = columns.firstIndex(of: column) else {
                    throw .usage(
                        "\(mapping.path): files[\(index)].columns.\(field.name): \(path) has no column \"\(column)\"")
                }
                origin = .column(place)
            }
            let time = file.times[field.name].map { time in
                (time.form, time.zone.flatMap(WallClockZone.init(identifier:)))
            }
            return Field(
                name: field.name, origin: origin, spellings: file.values[field.name],
                allowed: MappedVocabulary.values(of: field.name).map(Set.init), time: time)
        }
        self.columns = fields.map { field in
            if case .column(let place) = field.origin { return place + 1 }
            return 0
        }
    }

    /// A row's texts in field order (`nil`: absent), given each column's text by its place.
    func translate(_ text: (Int) -> String?) -> Result<[String?], Rejection> {
        var texts: [String?] = []
        texts.reserveCapacity(fields.count)
        for (index, field) in fields.enumerated() {
            var value: String?
            switch field.origin {
            case .absent: value = nil
            case .constant(let constant): value = constant
            case .column(let place): value = text(place)
            }
            let column = columns[index] > 0 ? columns[index] : nil
            guard let given = value, !given.isEmpty else {
                texts.append(nil)
                continue
            }
            var result = given
            if let spellings = field.spellings, let allowed = field.allowed, !allowed.contains(given) {
                guard let canonical = spellings[given] else {
                    return .failure(
                        Rejection(
                            field: field.name, column: column,
                            reason: "\(field.name) \"\(given)\" is not covered by the mapping's values.\(field.name)"))
                }
                result = canonical
            }
            if let time = field.time {
                switch time.form.canonical(given, zone: time.zone) {
                case .success(let instant): result = instant
                case .failure(let problem):
                    return .failure(
                        Rejection(field: field.name, column: column, reason: "\(field.name): \(problem.reason)"))
                }
            }
            texts.append(result)
        }
        return .success(texts)
    }
}
