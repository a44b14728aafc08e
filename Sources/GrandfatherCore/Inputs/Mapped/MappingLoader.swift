import Foundation
import GrandfatherEngine

/// Reads and checks a mapping before any input is read. Every problem is a usage error
/// naming the mapping file, the place in it and the field (`mapping.json:7:5: error:
/// files[0].columns: required field "purchase_date" is unmapped`).
enum MappingLoader {
    static func load(path: String) throws(GrandfatherError) -> Mapping {
        let bytes = try ReadableFile.readAll(path, as: .mapping, limit: Mapping.maximumSize) { _ -> GrandfatherError in
            .policy(file: path, line: nil, column: nil, message: "mapping file larger than 1 MiB")
        }
        return try parse(data: Data(bytes), file: path)
    }

    static func parse(data: Data, file: String) throws(GrandfatherError) -> Mapping {
        let members = try SettingsDocument.members(data, file: file, noun: "mapping")
        let reader = MappingReader(file: file)
        var mapping = try reader.mapping(members)
        mapping.digest = SettingsDocument.digest(data)
        mapping.path = file
        return mapping
    }
}

/// Walks a mapping's JSON, checking each key against what `Mapping` allows.
private struct MappingReader {
    let file: String

    func fail(_ line: Int, _ column: Int, _ path: String, _ message: String) -> GrandfatherError {
        .policy(file: file, line: line, column: column, message: "\(path): \(message)")
    }

    func fail(_ member: JSONMember, _ path: String, _ message: String) -> GrandfatherError {
        fail(member.valueLine, member.valueColumn, path, message)
    }

    func object(_ member: JSONMember, _ path: String) throws(GrandfatherError) -> [JSONMember] {
        guard let members = member.value.members else {
            throw fail(member, path, "must be an object, not \(member.value.typeName)")
        }
        if let repeated = member.value.firstRepeatedKey {
            throw fail(repeated.line, repeated.column, path, "duplicate key \"\(repeated.key)\"")
        }
        return members
    }

    func string(_ member: JSONMember, _ path: String) throws(GrandfatherError) -> String {
        guard case .string(let text) = member.value, !text.isEmpty else {
            throw fail(member, path, "must be a non-empty string")
        }
        return text
    }

    func mapping(_ members: [JSONMember]) throws(GrandfatherError) -> Mapping {
        // The format first: a mapping of another version is not read by this one's rules.
        let format = try members.first { $0.key == "format" }.map { member throws(GrandfatherError) in
            try string(member, "format")
        }
        guard format == Mapping.format else {
            throw .policy(
                file: file, line: 1, column: 1,
                message: "format: must be \"\(Mapping.format)\", not \(format.map { "\"\($0)\"" } ?? "absent")")
        }
        var files: [Mapping.File] = []
        for member in members {
            switch member.key {
            case "format": continue
            case "files":
                guard case .array(let elements) = member.value, !elements.isEmpty else {
                    throw fail(member, "files", "must be a non-empty array of file mappings")
                }
                for (index, element) in elements.enumerated() {
                    let place = Place(line: element.line, column: element.column, path: "files[\(index)]")
                    guard let members = element.value.members else {
                        throw fail(place.line, place.column, place.path, "must be an object")
                    }
                    if let repeated = element.value.firstRepeatedKey {
                        throw fail(repeated.line, repeated.column, place.path, "duplicate key \"\(repeated.key)\"")
                    }
                    files.append(try self.file(members, at: place))
                }
            default:
                throw fail(member.line, member.column, member.key, "unknown key (a mapping holds format and files)")
            }
        }
        guard !files.isEmpty else { throw .policy(file: file, line: 1, column: 1, message: "files: missing") }
        return Mapping(files: files)
    }

    /// Where a file mapping starts, and its path in messages (`files[0]`).
    struct Place {
        var line, column: Int
        var path: String
    }

    func file(_ members: [JSONMember], at place: Place) throws(GrandfatherError) -> Mapping.File {
        let path = place.path
        guard let kindMember = members.first(where: { $0.key == "kind" }) else {
            throw fail(place.line, place.column, path, "missing \"kind\" (customers or transactions)")
        }
        let kindName = try string(kindMember, "\(path).kind")
        guard let kind = RecordKind(rawValue: kindName), kind == .customers || kind == .transactions else {
            throw fail(kindMember, "\(path).kind", "must be customers or transactions, not \"\(kindName)\"")
        }
        // A draft's open questions first: its nulls are where their answers go.
        if let member = members.first(where: { $0.key == "undecided" }) {
            guard case .array(let items) = member.value else {
                throw fail(member, "\(path).undecided", "must be an array")
            }
            if let first = items.first {
                let text = if case .string(let text) = first.value { text } else { "" }
                throw fail(
                    member, "\(path).undecided",
                    "\(items.count) thing\(items.count == 1 ? " is" : "s are") left undecided by the draft: decide "
                        + "each and remove the list (the first: \(text))")
            }
        }
        let fields = MappedVocabulary.fields(of: kind)
        let names = Set(fields.map(\.name))
        var file = Mapping.File(kind: kind)
        var columnsSeen: [String: String] = [:]
        for member in members {
            let here = "\(path).\(member.key)"
            switch member.key {
            case "kind": continue
            case "name": file.name = try string(member, here)
            case "header":
                guard case .array(let items) = member.value, !items.isEmpty else {
                    throw fail(member, here, "must be a non-empty array of column names")
                }
                file.header = try items.map { item throws(GrandfatherError) in
                    guard case .string(let text) = item.value, !text.isEmpty else {
                        throw fail(item.line, item.column, here, "must hold non-empty column names")
                    }
                    return text
                }
            case "columns":
                for entry in try object(member, here) {
                    let field = try self.field(entry, here, names, kind)
                    let column = try string(entry, "\(here).\(field)")
                    if let other = columnsSeen[column] {
                        throw fail(entry, "\(here).\(field)", "column \"\(column)\" is already mapped to \(other)")
                    }
                    columnsSeen[column] = field
                    file.columns[field] = column
                }
            case "constants":
                for entry in try object(member, here) {
                    let field = try self.field(entry, here, names, kind)
                    let value = try string(entry, "\(here).\(field)")
                    try checkCanonical(value, field: field, entry, "\(here).\(field)")
                    file.constants[field] = value
                }
            case "values":
                for entry in try object(member, here) {
                    let field = try self.field(entry, here, names, kind)
                    guard MappedVocabulary.values(of: field) != nil else {
                        throw fail(entry.line, entry.column, "\(here).\(field)", "is not a field with named values")
                    }
                    var spellings: [String: String] = [:]
                    for spelling in try object(entry, "\(here).\(field)") {
                        let target = try string(spelling, "\(here).\(field).\(spelling.key)")
                        try checkCanonical(target, field: field, spelling, "\(here).\(field).\(spelling.key)")
                        spellings[spelling.key] = target
                    }
                    file.values[field] = spellings
                }
            case "times":
                for entry in try object(member, here) {
                    let field = try self.field(entry, here, names, kind)
                    guard MappedVocabulary.instants.contains(field) else {
                        throw fail(entry.line, entry.column, "\(here).\(field)", "is not a time field")
                    }
                    file.times[field] = try time(try object(entry, "\(here).\(field)"), entry, "\(here).\(field)")
                }
            case "undecided": continue
            default:
                throw fail(
                    member.line, member.column, here,
                    "unknown key (a file mapping holds name, header, kind, columns, constants, values, times)")
            }
        }
        if file.name == nil && file.header == nil {
            throw fail(
                place.line, place.column, path,
                "names no files: give \"name\" (a pattern such as \"purchases*.csv\") or \"header\"")
        }
        for (field, required) in fields where required {
            if file.columns[field] == nil && file.constants[field] == nil {
                throw fail(
                    place.line, place.column, path,
                    "required field \"\(field)\" of \(kind.rawValue) is unmapped: name its column under columns, "
                        + "or its value under constants")
            }
        }
        for field in file.columns.keys where file.constants[field] != nil {
            throw fail(place.line, place.column, path, "\"\(field)\" is under both columns and constants")
        }
        return file
    }

    /// A member's key, checked to be a field of `kind`.
    func field(_ member: JSONMember, _ path: String, _ names: Set<String>, _ kind: RecordKind) throws(GrandfatherError)
        -> String
    {
        guard names.contains(member.key) else {
            throw fail(member.line, member.column, "\(path).\(member.key)", "is not a field of \(kind.rawValue)")
        }
        return member.key
    }

    func checkCanonical(_ value: String, field: String, _ member: JSONMember, _ path: String) throws(GrandfatherError) {
        guard let allowed = MappedVocabulary.values(of: field), !allowed.contains(value) else { return }
        throw fail(member, path, "\"\(value)\" is not one of \(allowed.joined(separator: ", "))")
    }

    func time(_ members: [JSONMember], _ place: JSONMember, _ path: String) throws(GrandfatherError) -> Mapping.Time {
        var form: TimeForm?
        var zone: String?
        for member in members {
            switch member.key {
            case "form":
                let name = try string(member, "\(path).form")
                guard let found = TimeForm(rawValue: name) else {
                    throw fail(
                        member, "\(path).form",
                        "\"\(name)\" is not one of \(TimeForm.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                form = found
            case "zone":
                if case .null = member.value { continue }
                let name = try string(member, "\(path).zone")
                guard WallClockZone(identifier: name) != nil else {
                    throw fail(
                        member, "\(path).zone", "\"\(name)\" is not a time zone (an IANA name such as Europe/Berlin)")
                }
                zone = name
            default: throw fail(member.line, member.column, "\(path).\(member.key)", "unknown key (form, zone)")
            }
        }
        guard let form else { throw fail(place.line, place.column, path, "missing \"form\"") }
        if !form.carriesZone && zone == nil && form != .iso8601 {
            throw fail(
                place.line, place.column, path,
                "\(form.rawValue) times state no zone: name the zone they were written in")
        }
        return Mapping.Time(form: form, zone: zone)
    }
}
