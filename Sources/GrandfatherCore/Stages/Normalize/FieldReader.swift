import Foundation
import GrandfatherEngine

/// Typed access to a `RawRow`'s fields, each read turning bad bytes into a `RowProblem`.
///
/// The readers of a transaction's fields are inlined into `RecordNormalizer`: called, they were
/// twenty calls per row, and inlined the row takes 6% fewer instructions. A field's name is
/// an autoclosure, made only for a problem: passed as a string, it was built and released
/// nine times a row (240 instructions, measured under callgrind) for rows that have none.
struct FieldReader {
    let row: RawRow
    let timestamps: TimestampParser

    private func span(_ index: Int) -> RawRow.Span { row.spans[index] }

    private func column(_ index: Int) -> Int? {
        let column = Int(row.spans[index].column)
        return column > 0 ? column : nil
    }

    private func bytes<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(row.bytes(index))
    }

    /// Rejects the row when a known field holds a JSON object or array (SPEC §8.3), a JSON
    /// boolean (no field of SPEC §2 is one), or more than `RawRow.maximumFieldBytes` bytes.
    @inline(__always)
    func checkValue(_ index: Int, name: @autoclosure () -> String) throws(RowProblem) {
        let count = span(index).count
        if count == RawRow.Span.nested {
            throw RowProblem(field: name(), column: nil, reason: "\(name()) holds a JSON object or array")
        }
        if count == RawRow.Span.boolean {
            throw RowProblem(
                field: name(), column: nil, reason: "\(name()) holds true or false, not a value of its field")
        }
        if count > RawRow.maximumFieldBytes {
            throw RowProblem(
                field: name(), column: column(index),
                reason: TextBytes.Problem.overlong.reason(name()))
        }
    }

    /// Rejects the row when a required field is missing, or holds what `checkValue` rejects.
    @inline(__always)
    func require(_ index: Int, name: @autoclosure () -> String) throws(RowProblem) {
        try checkValue(index, name: name())
        if span(index).count <= 0 {
            throw RowProblem(field: name(), column: nil, reason: "missing required field \(name())")
        }
    }

    /// Text of a field, or `nil` when absent; text the one rule refuses as a `kind`
    /// (`TextBytes`) rejects the row.
    func text(_ index: Int, name: @autoclosure () -> String, as kind: TextBytes.Kind) throws(RowProblem) -> String? {
        try checkValue(index, name: name())
        guard span(index).count > 0 else { return nil }
        let bytes = row.bytes(index)
        try checkText(bytes, index, name: name(), as: kind)
        // Checked: valid UTF-8, copied straight in.
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: bytes)
            return bytes.count
        }
    }

    /// Stores a field's text in `batch`; `absent` when missing. Text the one rule refuses as
    /// a `kind` (`TextBytes`) rejects the row.
    @inline(__always)
    func text(
        _ index: Int, name: @autoclosure () -> String, as kind: TextBytes.Kind, into batch: inout TransactionBatch
    ) throws(RowProblem) -> TextRef {
        try checkValue(index, name: name())
        guard span(index).count > 0 else { return .absent }
        let bytes = row.bytes(index)
        try checkText(bytes, index, name: name(), as: kind)
        return batch.store(bytes)
    }

    /// Every text passes the one rule (`TextBytes`): valid UTF-8, no control character, not
    /// too long; an id no white space at either end.
    @inline(__always)
    private func checkText(
        _ bytes: UnsafeRawBufferPointer, _ index: Int, name: @autoclosure () -> String, as kind: TextBytes.Kind
    ) throws(RowProblem) {
        if let problem = TextBytes.problem(bytes, as: kind) {
            throw RowProblem(field: name(), column: column(index), reason: problem.reason(name()))
        }
    }

    /// A price as a canonical decimal stored in `batch`; `absent` when missing.
    @inline(__always)
    func decimal(_ index: Int, name: @autoclosure () -> String, into batch: inout TransactionBatch) throws(RowProblem)
        -> TextRef
    {
        try checkValue(index, name: name())
        guard span(index).count > 0 else { return .absent }
        if let stored = bytes(index, { DecimalText.canonical($0) { batch.store($0) } }) { return stored }
        let shown = bytes(index) { Excerpt.of($0) }
        throw RowProblem(field: name(), column: column(index), reason: "bad \(name()) '\(shown)' (not a decimal)")
    }

    /// Text of a required field.
    func required(_ index: Int, name: @autoclosure () -> String, as kind: TextBytes.Kind) throws(RowProblem)
        -> String
    {
        guard let value = try text(index, name: name(), as: kind) else {
            throw RowProblem(field: name(), column: column(index), reason: "missing required field \(name())")
        }
        return value
    }

    /// A closed vocabulary value, case-insensitive; `nil` when absent.
    @inline(__always)
    func enumeration<Value: Vocabulary>(
        _ index: Int, name: @autoclosure () -> String, as type: Value.Type
    ) throws(RowProblem) -> Value? {
        try checkValue(index, name: name())
        guard span(index).count > 0 else { return nil }
        if let value = bytes(index, { Value.parse(caseInsensitive: $0) }) { return value }
        let shown = bytes(index) { Excerpt.of($0) }
        throw RowProblem(field: name(), column: column(index), reason: "unknown \(name()) '\(shown)'")
    }

    /// The environment, where `xcode` means sandbox (SPEC §8.4); production when absent.
    @inline(__always)
    func environment(_ index: Int, name: @autoclosure () -> String) throws(RowProblem) -> Environment {
        try checkValue(index, name: name())
        guard span(index).count > 0 else { return .production }
        if let value = bytes(index, { Environment.parse(caseInsensitive: $0) }) { return value }
        if bytes(index, { $0.count == 5 && zip($0, "xcode".utf8).allSatisfy { asciiLowercased($0) == $1 } }) {
            return .sandbox
        }
        let shown = bytes(index) { Excerpt.of($0) }
        throw RowProblem(field: name(), column: column(index), reason: "unknown \(name()) '\(shown)'")
    }

    /// An instant; `nil` when absent. Any present but invalid timestamp rejects the row.
    @inline(__always)
    func instant(_ index: Int, name: @autoclosure () -> String) throws(RowProblem) -> Instant? {
        try checkValue(index, name: name())
        guard span(index).count > 0 else { return nil }
        switch bytes(index, { timestamps.parse($0) }) {
        case .success(let instant): return instant
        case .failure(let problem):
            let shown = bytes(index) { Excerpt.of($0) }
            throw RowProblem(field: name(), column: column(index), reason: "\(name()): " + problem.reason(for: shown))
        }
    }

}

extension Vocabulary {
    /// Reads a value case-insensitively from raw bytes (ASCII case folding; every
    /// vocabulary here is ASCII, so other bytes can never match).
    static func parse(caseInsensitive bytes: UnsafeRawBufferPointer) -> Self? {
        spellings.value(bytes)
    }
}
