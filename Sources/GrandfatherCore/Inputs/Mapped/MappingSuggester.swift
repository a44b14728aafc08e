/// Drafts a mapping from the start of a team's own files (`grandfather map --suggest`, issue
/// 52): which column holds each field, by the names teams give them; the spellings of named
/// values it recognises; the form of each time column. What it cannot decide, it says, in the
/// file's `undecided` list, and leaves a `null` where the answer goes: a mapping is used only
/// once that list is gone.
enum MappingSuggester {
    static func suggest(_ samples: [MappedSample]) -> Mapping {
        Mapping(files: samples.map(file))
    }

    static func file(_ sample: MappedSample) -> Mapping.File {
        let (kind, kindUndecided) = self.kind(sample.columns)
        let assigned = columns(sample.columns, kind: kind)
        var file = Mapping.File(kind: kind)
        file.name = namePattern(sample.path)
        file.columns = assigned.mapValues { sample.columns[$0] }
        // The columns that pick the file: in CSV every mapped one; JSON objects leave keys out,
        // so there only the mapped keys every sampled object holds.
        file.header = sample.columns.enumerated().filter { place, column in
            Set(file.columns.values).contains(column)
                && (sample.format == .csv || sample.rows.allSatisfy { $0[place] != nil })
        }.map(\.element)
        if let kindUndecided { file.undecided.append(kindUndecided) }
        for (field, required) in MappedVocabulary.fields(of: kind) where required && assigned[field] == nil {
            let choices = MappedVocabulary.values(of: field).map { " (\($0.joined(separator: ", ")))" } ?? ""
            file.undecided.append(
                "columns.\(field): no column is named like \(field): name the column that holds it, or give every "
                    + "row's value under constants\(choices)")
            file.unknownConstants.append(field)
        }
        for (field, column) in assigned.sorted(by: { $0.key < $1.key }) {
            let texts = sample.rows.compactMap { $0[column] }
            if MappedVocabulary.values(of: field) != nil {
                spell(field, column: sample.columns[column], texts, into: &file)
            } else if MappedVocabulary.instants.contains(field) {
                time(field, texts, into: &file)
            }
        }
        return file
    }

    /// Customers or transactions: whichever kind's fields more columns are named like (its
    /// required fields counting double). A tie is undecided; the draft says transactions.
    static func kind(_ columns: [String]) -> (RecordKind, String?) {
        func score(_ kind: RecordKind) -> Int {
            let assigned = Self.columns(columns, kind: kind)
            return MappedVocabulary.fields(of: kind).reduce(0) { total, field in
                // customer_id is in both kinds: it tells neither.
                guard assigned[field.name] != nil, field.name != "customer_id" else { return total }
                return total + (field.required ? 2 : 1)
            }
        }
        let customers = score(.customers)
        let transactions = score(.transactions)
        if customers > transactions { return (.customers, nil) }
        if transactions > customers { return (.transactions, nil) }
        return (
            .transactions,
            "kind: the columns fit customers and transactions alike: say which the file holds (and its columns)"
        )
    }

    /// Field → the place of the column holding it, each column given to one field at most:
    /// pairs are taken best first (a field's own name, then its synonyms in order), a pair
    /// whose field or column is already taken is skipped.
    /// `synonyms` is the vocabulary's; a test gives others, where names overlap.
    static func columns(
        _ columns: [String], kind: RecordKind, synonyms: [String: [String]] = MappedVocabulary.synonyms
    ) -> [String: Int] {
        let fields = MappedVocabulary.fields(of: kind).map(\.name)
        var pairs: [(rank: Int, field: Int, column: Int)] = []
        for (place, column) in columns.enumerated() {
            let name = MappedVocabulary.folded(column)
            for (index, field) in fields.enumerated() {
                let names = [MappedVocabulary.folded(field)] + (synonyms[field] ?? [])
                if let rank = names.firstIndex(of: name) { pairs.append((rank, index, place)) }
            }
        }
        pairs.sort { ($0.rank, $0.field, $0.column) < ($1.rank, $1.field, $1.column) }
        var assigned: [String: Int] = [:]
        var taken = Set<Int>()
        for pair in pairs where assigned[fields[pair.field]] == nil && !taken.contains(pair.column) {
            assigned[fields[pair.field]] = pair.column
            taken.insert(pair.column)
        }
        return assigned
    }

    /// The file's name with each run of digits as `*`, so that tomorrow's export of the same
    /// shape (`purchases-2026-11-30.csv`) is picked too.
    static func namePattern(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var pattern = ""
        for character in name {
            if character.isASCII && character.isNumber {
                if !pattern.hasSuffix("*") { pattern.append("*") }
            } else {
                pattern.append(character)
            }
        }
        return pattern
    }

    /// The spellings of a named field's values: canonical ones as they are, known ones mapped,
    /// the rest asked for.
    static func spell(_ field: String, column: String, _ texts: [String], into file: inout Mapping.File) {
        guard let allowed = MappedVocabulary.values(of: field) else { return }
        var seen: [String] = []
        for text in texts where !seen.contains(text) {
            seen.append(text)
            if seen.count > 50 { break }
        }
        let folded = MappedVocabulary.folded(column)
        // A yes-or-no column standing for a field (`is_sandbox`, `family_shared`).
        if let flag = MappedVocabulary.flags[field], folded != MappedVocabulary.folded(field),
            seen.allSatisfy({
                MappedVocabulary.yes.contains($0.lowercased()) || MappedVocabulary.no.contains($0.lowercased())
            })
        {
            for text in seen {
                file.values[field, default: [:]][text] =
                    MappedVocabulary.yes.contains(text.lowercased()) ? flag.yes : flag.no
            }
            return
        }
        for text in seen where !allowed.contains(text) {
            if let canonical = MappedVocabulary.spellings[field]?[MappedVocabulary.folded(text)] {
                file.values[field, default: [:]][text] = canonical
            } else {
                file.unknownSpellings[field, default: []].append(text)
                file.undecided.append(
                    "values.\(field): \"\(text)\" is no spelling the draft knows: map it to one of "
                        + allowed.joined(separator: ", "))
            }
        }
    }

    /// The form of a time column's values, and whether a zone must be named.
    static func time(_ field: String, _ texts: [String], into file: inout Mapping.File) {
        var forms: [TimeForm] = []
        var unzoned = false
        var ambiguous = true
        var unreadable: String?
        for text in texts.prefix(MappedSample.rowLimit) {
            guard let guess = TimeForm.guess(text) else {
                unreadable = unreadable ?? text
                continue
            }
            if !forms.contains(guess.form) { forms.append(guess.form) }
            if !guess.zoned { unzoned = true }
            if !guess.ambiguous { ambiguous = false }
        }
        // Slash dates seen both ways are one form, whichever day showed above 12.
        if Set(forms) == [.usDate, .dayFirstDate] {
            forms = [.dayFirstDate]
            ambiguous = false
        }
        if let unreadable {
            file.undecided.append(
                "times.\(field): \"\(unreadable)\" is in no form the draft knows (\(TimeForm.allCases.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        guard forms.count == 1, let form = forms.first else {
            if forms.count > 1 {
                file.undecided.append(
                    "times.\(field): the values are written in several forms (\(forms.map(\.rawValue).joined(separator: ", "))): give one"
                )
            }
            return
        }
        // ISO-8601 with a zone is what SPEC §2 reads already.
        if form == .iso8601 && !unzoned { return }
        file.times[field] = Mapping.Time(form: form, zone: nil)
        if form.carriesZone { return }
        if form == .usDate && ambiguous {
            file.undecided.append(
                "times.\(field).form: no date has a number above 12 in its first two places: say whether they are "
                    + "MM/dd/yyyy or dd/MM/yyyy")
        }
        file.undecided.append(
            "times.\(field).zone: the times state no zone: name the zone they were written in (an IANA name such "
                + "as Europe/Berlin, or UTC)")
    }
}

/// The mapped export's commands' way in (`grandfather map`).
public enum MappedExports {
    /// A draft mapping for the files at `paths`, as JSON, and what it left undecided (each
    /// line prefixed with its file's path).
    public static func suggest(_ paths: [String]) throws(GrandfatherError) -> (json: String, undecided: [String]) {
        var samples: [MappedSample] = []
        for path in paths { samples.append(try MappedSample.read(path)) }
        let mapping = MappingSuggester.suggest(samples)
        let undecided = zip(paths, mapping.files).flatMap { path, file in file.undecided.map { "\(path): \($0)" } }
        return (mapping.json(), undecided)
    }
}
