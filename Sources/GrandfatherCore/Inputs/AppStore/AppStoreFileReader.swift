import Dispatch
import Foundation
import GrandfatherEngine

/// How App Store files are read: which unsigned data to accept and what the policy expects.
struct AppStoreReadOptions: Sendable, Equatable {
    /// Accept data that carries no signature (decoded payloads, verifyReceipt responses,
    /// V1 notifications) as `unsigned` (`--trust-decoded`); otherwise each is rejected.
    var trustDecoded: Bool
    /// The policy's `apple.bundle_id`: a payload of another bundle (or of none) is rejected.
    var bundleID: String?
    /// The policy's expected environment (`Production` or `Sandbox`): a payload of another
    /// environment (or of none) is rejected. Xcode and LocalTesting data count as Sandbox.
    var environment: String?
    /// Read a JWS whose signature is refused but whose payload says it comes from Xcode or
    /// LocalTesting, as unverified sandbox data (`--accept-self-signed`, or the policy's
    /// `apple.environment` naming one of them); otherwise such a JWS is rejected.
    var acceptSelfSigned: Bool

    init(
        trustDecoded: Bool = false, bundleID: String? = nil, environment: String? = nil, acceptSelfSigned: Bool = false
    ) {
        self.trustDecoded = trustDecoded
        self.bundleID = bundleID
        self.environment = environment
        self.acceptSelfSigned = acceptSelfSigned
    }
}

/// What one App Store file held.
struct AppStoreFileContents: Sendable, Equatable {
    /// Every row of the file, in file order; each record is one row.
    var records: [AppStoreRecord] = []
    /// Every V2 notification's `notificationType` (`TYPE/SUBTYPE` when it has a subtype),
    /// counted, whether or not the notification was accepted.
    var notificationTypes: [String: Int] = [:]
    /// The part of `notificationTypes` whose type is not one FORMATS.md §4 lists.
    var unknownNotificationTypes: [String: Int] = [:]
}

/// Reads a recognized App Store file into records.
///
/// Accounting: every `AppStoreRecord` is one row. A JWS (or decoded object) gives one row per
/// record it carries: a transaction, a renewal, a customer; a notification carrying a
/// transaction and renewal info gives two rows at the same line; a notification that carries
/// no record (TEST, a summary, an external purchase token) one `.noted` row; an element that
/// cannot be read, fails its signature check or its policy check one `.rejected` row. A row's
/// line is where its element starts: the JWS string, the decoded object, the receipt row.
/// A syntax error gives one `.rejected` row at its line; in a JSON array it ends the reading,
/// in JSON Lines the reading goes on at the next line that starts with `{`.
enum AppStoreFileReader {
    /// Reads `bytes`, a whole file recognized as `shape` by `AppStoreRecognizer` (what fuzzing
    /// and tests give; a run streams its files, `read(at:shape:options:checker:)`).
    /// - Parameters:
    ///   - options: what unsigned data to accept and what the policy expects.
    ///   - checker: checks each JWS's signature (or, with `--no-verify`, does not).
    /// - Returns: the rows, and the notification types seen. Never throws: a bad file is rows.
    static func read(
        _ bytes: [UInt8], shape: AppStoreShape, options: AppStoreReadOptions, checker: some JWSChecking
    ) -> AppStoreFileContents {
        let units = shape == .jwsLines ? AppStoreUnit.jwsLines(bytes) : AppStoreUnit.json(bytes)
        return read(units, options: options, checker: checker)
    }

    /// How many units are gathered before they are read together, on every core.
    static let batch = 4_096

    /// Reads the file at `path`, recognized as `shape`, streamed a piece at a time: memory holds
    /// a batch of its units and the rows read so far (which the linker needs, all of them),
    /// never the file or its tree. Rows, lines and rejections are what `read(_:shape:…)` gives.
    static func read(
        at path: String, shape: AppStoreShape, options: AppStoreReadOptions, checker: some JWSChecking,
        piece: Int = JSONDocuments.streamChunk
    ) throws(GrandfatherError) -> (source: ByteSource, contents: AppStoreFileContents) {
        var contents = AppStoreFileContents()
        var units: [AppStoreUnit] = []
        func gather(_ unit: AppStoreUnit) {
            units.append(unit)
            guard units.count == batch else { return }
            contents.append(read(units, options: options, checker: checker))
            units.removeAll(keepingCapacity: true)
        }
        let source: ByteSource
        if shape == .jwsLines {
            source = try AppStoreUnit.streamJWSLines(at: path, piece: piece, gather)
        } else {
            source = try JSONDocuments.stream(at: path, what: "App Store file", piece: piece) {
                gather(AppStoreUnit($0))
            }
        }
        contents.append(read(units, options: options, checker: checker))
        return (source, contents)
    }

    /// Reads `units`, where verifying signatures costs nearly all the time, in parts on every
    /// core, the parts' rows joined in order.
    private static func read(
        _ units: [AppStoreUnit], options: AppStoreReadOptions, checker: some JWSChecking
    ) -> AppStoreFileContents {
        let parts = min(units.count, max(1, ProcessInfo.processInfo.activeProcessorCount) * 4)
        guard parts > 1 else {
            var reading = AppStoreReading(options: options, checker: checker)
            for unit in units { reading.read(unit) }
            return reading.contents
        }
        let slots = ResultSlots<AppStoreFileContents, GrandfatherError>(count: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            var reading = AppStoreReading(options: options, checker: checker)
            for unit in units[(units.count * part / parts)..<(units.count * (part + 1) / parts)] {
                reading.read(unit)
            }
            slots.store(part, .success(reading.contents))
        }
        var contents = AppStoreFileContents()
        for part in 0..<parts {
            // Every job stores a success; `take` cannot throw here.
            guard let read = try? slots.take(part) else { continue }
            contents.append(read)
        }
        return contents
    }
}

extension AppStoreFileContents {
    /// `other`'s rows after these, and its notification types counted in.
    mutating func append(_ other: AppStoreFileContents) {
        records.append(contentsOf: other.records)
        notificationTypes.merge(other.notificationTypes, uniquingKeysWith: +)
        unknownNotificationTypes.merge(other.unknownNotificationTypes, uniquingKeysWith: +)
    }
}

/// A top-level unit of an App Store file: read on its own, on any core.
enum AppStoreUnit: Sendable {
    /// One line of a JWS-lines file.
    case jws(line: Int, text: String)
    /// One top-level JSON value.
    case element(JSONValue.Located)
    /// A syntax error, where it stands among the units.
    case rejected(line: Int, reason: String)
}

/// The state of reading one file: the options, the checker and the rows so far.
struct AppStoreReading {
    let options: AppStoreReadOptions
    let checker: any JWSChecking
    var contents = AppStoreFileContents()

    init(options: AppStoreReadOptions, checker: any JWSChecking) {
        self.options = options
        self.checker = checker
    }

    mutating func emit(_ record: AppStoreRecord) {
        contents.records.append(record)
    }

    mutating func reject(_ line: Int, _ reason: String) {
        contents.records.append(.rejected(line: line, reason: reason))
    }

    // MARK: - Containers

    /// Reads one unit of the file.
    mutating func read(_ unit: AppStoreUnit) {
        switch unit {
        case .jws(let line, let text):
            readSigned(text, line: line, role: nil)
        case .element(let element): readElement(element)
        case .rejected(let line, let reason): reject(line, reason)
        }
    }

    // MARK: - Elements

    /// One top-level element, told apart by its own keys (so that a file may mix shapes):
    /// a JWS string, or an object of any App Store shape.
    mutating func readElement(_ element: JSONValue.Located) {
        if let text = element.string { return readSigned(text, line: element.line, role: nil) }
        guard let members = element.value.members else {
            return reject(element.line, "\(element.typeName) is neither a JSON object nor a JWS string")
        }
        switch AppStoreRecognizer.classify(members.map { ($0.key, $0.value) }) {
        case .appStore(let elementShape): readObject(element, shape: elementShape)
        case .notRecords(let description): reject(element.line, description)
        case nil:
            let keys = members.isEmpty ? "none" : Excerpt.of(members.map(\.key).joined(separator: ", "))
            reject(element.line, "object is not App Store data (keys: \(keys))")
        }
    }

    private mutating func readObject(_ element: JSONValue.Located, shape: AppStoreShape) {
        switch shape {
        case .jwsLines, .jwsArray: reject(element.line, "object is not a JWS string")
        case .notificationBodies: readSignedMember(element, "signedPayload", role: .notification)
        case .notificationHistory:
            forEach(element, "notificationHistory") { reading, entry in
                reading.readSignedMember(entry, "signedPayload", role: .notification)
            }
        case .signedTransactionList:
            forEach(element, "signedTransactions") { reading, entry in
                guard let text = entry.string else {
                    return reading.reject(entry.line, "signedTransactions element is \(entry.typeName), not a JWS")
                }
                reading.readSigned(text, line: entry.line, role: .transaction)
            }
        case .transactionInfoResponse: readStatusEntry(element)
        case .subscriptionStatuses:
            forEach(element, "data") { reading, group in
                reading.forEach(group, "lastTransactions") { reading, entry in reading.readStatusEntry(entry) }
            }
        case .appTransactionInfoResponse: readSignedMember(element, "signedAppTransactionInfo", role: .appTransaction)
        case .decodedTransactions, .decodedRenewalInfo, .decodedAppTransactions, .decodedNotifications:
            readDecoded(element)
        case .receipts, .wrappedReceipts: readReceipt(element)
        case .v1Notifications: readV1Notification(element)
        }
    }

    /// Calls `body` for each element of the array `object[key]`; a missing or other value is
    /// one rejected row.
    private mutating func forEach(
        _ object: JSONValue.Located, _ key: String, _ body: (inout AppStoreReading, JSONValue.Located) -> Void
    ) {
        guard let elements = object[key]?.elements else {
            let found = object[key].map { "is \($0.typeName)" } ?? "is missing"
            return reject(object[key]?.line ?? object.line, "\(key) \(found), not an array")
        }
        for element in elements { body(&self, element) }
    }
}
