import Foundation

/// `grandfather normalize`: reads the inputs exactly as `audit` does and writes the records it
/// accepted in the warehouse layout (`WarehouseLayout`), for `grandfather sql` to classify
/// where the data lives, or for a team to load any source Grandfather reads.
///
/// The folder is built beside its final name and moved into place whole: a reader never
/// sees half of one, and a run that fails leaves the previous folder as it was.
public enum NormalizedFolder {
    /// What the folder says of the run that wrote it (`manifest.json`).
    struct Manifest: Codable {
        var toolVersion: String
        var policyName: String?
        var policySHA256: String
        /// The instant RevenueCat's active entitlements were read at.
        var asOf: String
        var inputs: [InputReport]
        /// What the App Store inputs held and how their signatures were treated, for the
        /// reports of a run made from this folder.
        var appStore: AppStoreSummary?

        enum CodingKeys: String, CodingKey {
            case inputs
            case appStore = "app_store"
            case toolVersion = "tool_version"
            case policyName = "policy_name"
            case policySHA256 = "policy_sha256"
            case asOf = "as_of"
        }
    }

    /// What a run wrote, for the command's last line.
    public struct Written: Sendable {
        public var customers: Int
        public var transactions: Int
        public var rejected: Int
        public var rowsRead: Int
    }

    /// Reads `inputs` under `settings` and writes the folder `out`, replacing a folder this
    /// command wrote before; any other file or folder of that name is left alone (an error).
    /// Rejected rows over the policy's `max_rejected_fraction` write nothing (exit 3).
    public static func write(
        _ settings: AuditSettings, inputs: [String], out: String, progress: ProgressSink? = nil
    ) throws(GrandfatherError) -> Written {
        try write(settings, inputs: inputs, out: out, progress: progress, hooks: TestHooks())
    }

    /// `write`, with the ingest stage cut as `hooks` says (tests).
    static func write(
        _ settings: AuditSettings, inputs: [String], out: String, progress: ProgressSink?, hooks: TestHooks
    ) throws(GrandfatherError) -> Written {
        try checkReplaceable(out)
        let log = RecordLog(inputs: inputs)
        let audit = try Pipeline.audits(
            [settings], inputs: inputs, progress: progress, hooks: hooks, recordLog: log)[0]
        // As `audit` leaves `latest` where it was, a folder the warehouse loads is not replaced
        // by one past the data-quality threshold.
        if audit.exceedsRejectionThreshold {
            throw .dataQuality(
                rejected: audit.rowsRejected, read: audit.rowsRead, maximumFraction: audit.policy.maxRejectedFraction,
                runFolder: nil)
        }
        let building = sibling(of: out, tag: "normalizing")
        try FileSystem.makeFreshDirectory(building)
        do {
            try writeTables(audit, log: log, into: building)
            try FileSystem.sync(building)
            try moveIntoPlace(building, out)
        } catch {
            try? FileSystem.remove(building)
            throw error
        }
        return Written(
            customers: audit.customers.count, transactions: log.rows, rejected: audit.rejections.count,
            rowsRead: audit.rowsRead)
    }

    /// Every file of the folder.
    private static func writeTables(_ audit: Audit, log: RecordLog, into folder: String) throws(GrandfatherError) {
        func path(_ table: WarehouseLayout.Table) -> String { FileSystem.join(folder, table.fileName) }
        try log.write(header: WarehouseLayout.transactions.header, to: path(WarehouseLayout.transactions))
        try FileSystem.writeNewFile(path(WarehouseLayout.customers), customerRows(audit))
        try FileSystem.writeNewFile(path(WarehouseLayout.customerFactSources), factSourceRows(audit))
        try FileSystem.writeNewFile(
            path(WarehouseLayout.productEntitlements),
            rows(WarehouseLayout.productEntitlements, audit.rowEntitlements))
        try FileSystem.writeNewFile(
            path(WarehouseLayout.serviceEntitlements),
            rows(WarehouseLayout.serviceEntitlements, audit.serviceEntitlements))
        try FileSystem.writeNewFile(path(WarehouseLayout.mergedIDs), mergedRows(audit))
        try FileSystem.writeNewFile(path(WarehouseLayout.rejected), rejectedRows(audit))
        try FileSystem.writeNewFile(
            FileSystem.join(folder, "schema.sql"), Array(WarehouseSchema.script(for: nil).utf8))
        try FileSystem.writeNewFile(FileSystem.join(folder, "manifest.json"), manifest(audit))
    }

    private static func customerRows(_ audit: Audit) -> ByteBuffer {
        let out = ByteBuffer(capacity: 64 * audit.customers.count + 256)
        out.appendRaw(WarehouseLayout.customers.header)
        let comma = UInt8(ascii: ",")
        audit.customers.forEachVerdict { customer, _, _ in
            out.appendWarehouseCell(customer.id)
            out.append(comma)
            out.appendWarehouseCell(customer.platform?.rawValue)
            out.append(comma)
            out.appendWarehouseCell(customer.originalAppVersion)
            out.append(comma)
            out.appendWarehouseCell(customer.originalPurchaseDate)
            out.append(comma)
            out.appendWarehouseCell(customer.environment.rawValue)
            out.append(comma)
            out.appendWarehouseCell(customer.preorderDate)
            out.append(comma)
            out.appendWarehouseCell(customer.storefront)
            out.append(comma)
            out.appendWarehouseCell(customer.isOrphan)
            out.append(comma)
            out.appendWarehouseCell(customer.isUnlinked)
            out.append(comma)
            out.appendWarehouseCell(customer.provenance.hasConflictingFacts)
            out.append(comma)
            out.appendWarehouseCell(customer.provenance.rowSource?.code)
            out.append(comma)
            out.appendWarehouseCell(audit.serviceEntitlements[customer.id] != nil)
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    private static func factSourceRows(_ audit: Audit) -> ByteBuffer {
        let out = ByteBuffer(capacity: 4096)
        out.appendRaw(WarehouseLayout.customerFactSources.header)
        // As the snapshot's table: only customers whose facts came from several sources.
        audit.customers.forEachVerdict { customer, _, _ in
            guard customer.provenance.isAssembled else { return }
            for fact in CustomerFact.allCases {
                guard let source = customer.provenance.source(of: fact) else { continue }
                appendRow([customer.id, fact.code, source.code], to: out)
            }
        }
        return out
    }

    /// A table of (key, value) rows from sets by key, both in code-point order.
    private static func rows(_ table: WarehouseLayout.Table, _ sets: [String: Set<String>]) -> ByteBuffer {
        let out = ByteBuffer(capacity: 4096)
        out.appendRaw(table.header)
        for key in sets.keys.sorted(by: { $0.codePointPrecedes($1) }) {
            for value in (sets[key] ?? []).sorted(by: { $0.codePointPrecedes($1) }) {
                appendRow([key, value], to: out)
            }
        }
        return out
    }

    private static func mergedRows(_ audit: Audit) -> ByteBuffer {
        let out = ByteBuffer(capacity: 4096)
        out.appendRaw(WarehouseLayout.mergedIDs.header)
        for merged in audit.mergedIDs { appendRow([merged.id, merged.customerID, merged.how.rawValue], to: out) }
        return out
    }

    private static func rejectedRows(_ audit: Audit) -> ByteBuffer {
        let out = ByteBuffer(capacity: 4096)
        out.appendRaw(WarehouseLayout.rejected.header)
        for rejection in audit.rejections {
            appendRow(
                [
                    rejection.file, String(rejection.line), rejection.column.map(String.init), rejection.field,
                    rejection.reason,
                ],
                to: out)
        }
        return out
    }

    private static func appendRow(_ cells: [String?], to out: ByteBuffer) {
        for (index, cell) in cells.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.appendWarehouseCell(cell)
        }
        out.append(UInt8(ascii: "\n"))
    }

    private static func manifest(_ audit: Audit) throws(GrandfatherError) -> [UInt8] {
        let manifest = Manifest(
            toolVersion: ToolVersion.current, policyName: audit.policy.name, policySHA256: audit.policy.digest,
            asOf: audit.asOf.iso8601, inputs: audit.inputs, appStore: audit.appStore)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(manifest)) + [UInt8(ascii: "\n")]
        } catch {
            throw .internal("cannot encode manifest.json: \(error)")
        }
    }

    // MARK: The folder's place

    /// A name beside `out` in its parent folder, so that a rename moves it into place.
    private static func sibling(of out: String, tag: String) -> String {
        // Split by hand: Foundation's `deletingLastPathComponent` traps on a one-letter name.
        var trimmed = Substring(out)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let slash = trimmed.lastIndex(of: "/")
        let parent = slash.map { $0 == trimmed.startIndex ? "/" : String(trimmed[..<$0]) } ?? "."
        let name = slash.map { String(trimmed[trimmed.index(after: $0)...]) } ?? String(trimmed)
        let token = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        return FileSystem.join(parent, ".\(name).\(tag)-\(token)")
    }

    /// Whether `out` may be replaced: absent, an empty folder, or a folder this command wrote.
    private static func checkReplaceable(_ out: String) throws(GrandfatherError) {
        guard FileSystem.exists(out) || FileSystem.isSymbolicLink(out) else { return }
        guard FileSystem.isDirectory(out), !FileSystem.isSymbolicLink(out) else {
            throw .usage("--out \(out) exists and is not a folder")
        }
        let names = FileSystem.names(in: out)
        guard names.isEmpty || names.contains("manifest.json") && names.contains("schema.sql") else {
            throw .usage("--out \(out) holds files that grandfather normalize did not write; choose another folder")
        }
    }

    /// Moves the built folder to `out`, replacing the folder there, if any, only once the
    /// new one is whole.
    private static func moveIntoPlace(_ building: String, _ out: String) throws(GrandfatherError) {
        guard FileSystem.exists(out) else {
            try FileSystem.rename(building, out)
            return
        }
        let old = sibling(of: out, tag: "replaced")
        try FileSystem.rename(out, old)
        do {
            try FileSystem.rename(building, out)
        } catch {
            try? FileSystem.rename(old, out)
            throw error
        }
        try? FileSystem.remove(old)
    }
}
