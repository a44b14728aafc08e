import Foundation
import GrandfatherEngine

/// `grandfather normalize`: reads the inputs exactly as `audit` does and writes the records it
/// accepted in the warehouse layout (`WarehouseLayout`), for `grandfather sql` to classify
/// where the data lives, or for a team to load any source Grandfather reads.
///
/// The folder is built beside its final name, marked as this command's (`NormalizeMarker`) and
/// moved into place whole (`NormalizeTarget`): a reader never sees half of one, a run that
/// fails leaves the previous folder as it was, and a run killed at any point is put right by
/// the next.
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
        /// What the stores' sales reports counted, for the reports of a run made from this
        /// folder; absent when the run read none.
        var salesPopulation: SalesPopulationRecord?

        enum CodingKeys: String, CodingKey {
            case inputs
            case appStore = "app_store"
            case salesPopulation = "sales_population"
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

    /// Reads `inputs` under `settings` and writes the folder `target.out`, replacing a folder
    /// this command wrote (or an empty one); any other file or folder of that name is left
    /// alone (an error). Rejected rows over the policy's `max_rejected_fraction` write nothing
    /// (exit 3).
    ///
    /// - Parameters:
    ///   - lock: the proof that this process holds `target`'s lock: only then may it put right
    ///     what a killed run left.
    ///   - recovered: told what was put right, before the inputs are read.
    public static func write(
        _ settings: AuditSettings, inputs: [String], into target: NormalizeTarget, lock: RunLock,
        progress: ProgressSink? = nil, recovered: (NormalizeRecovery) -> Void = { _ in }
    ) throws(GrandfatherError) -> Written {
        try write(
            settings, inputs: inputs, into: target, lock: lock, progress: progress, recovered: recovered,
            hooks: TestHooks())
    }

    /// `write`, made to die or pause, or its ingest cut, where `hooks` says (tests).
    @_spi(TestHooks) public static func write(
        _ settings: AuditSettings, inputs: [String], into target: NormalizeTarget, lock: RunLock,
        progress: ProgressSink?, recovered: (NormalizeRecovery) -> Void, hooks: TestHooks
    ) throws(GrandfatherError) -> Written {
        if let recovery = try target.recover(lock) { recovered(recovery) }
        try target.checkReplaceable()
        // Made first: the parsers write the transactions' parts straight into it.
        let building = try target.makeBuilding()
        do throws(GrandfatherError) {
            let log = RecordLog(inputs: inputs, header: WarehouseLayout.transactions.header, folder: building)
            let audit = try Pipeline.audits(
                [settings], inputs: inputs, progress: progress, hooks: hooks, recordLog: log)[0]
            // As `audit` leaves `latest` where it was, a folder the warehouse loads is not
            // replaced by one past the data-quality threshold.
            if audit.exceedsRejectionThreshold {
                throw .dataQuality(
                    rejected: audit.rowsRejected, read: audit.rowsRead,
                    maximumFraction: audit.policy.maxRejectedFraction, runFolder: nil)
            }
            try writeTables(audit, log: log, into: building, hooks: hooks)
            try NormalizeMarker.write(into: building)
            hooks.reach(.afterBuilding)
            try target.replace(with: building, hooks: hooks)
            return Written(
                customers: audit.customers.count, transactions: log.rows, rejected: audit.rejections.count,
                rowsRead: audit.rowsRead)
        } catch {
            try? Disk.remove(building)
            throw error
        }
    }

    /// `write` into `out`, its lock taken at once (tests).
    static func write(
        _ settings: AuditSettings, inputs: [String], out: String, progress: ProgressSink?, hooks: TestHooks
    ) throws(GrandfatherError) -> Written {
        let target = try NormalizeTarget(out: out)
        let lock = try target.lock(wait: 0, startedAt: "a test")
        return try write(
            settings, inputs: inputs, into: target, lock: lock, progress: progress, recovered: { _ in }, hooks: hooks)
    }

    /// Every file of the folder.
    private static func writeTables(
        _ audit: Audit, log: RecordLog, into folder: String, hooks: TestHooks
    ) throws(GrandfatherError) {
        func path(_ table: WarehouseLayout.Table) -> String { FileSystem.join(folder, table.fileName) }
        _ = try Spills.writeParts(of: log, named: WarehouseLayout.transactions.partName)
        hooks.reach(.midBuilding)
        try Disk.writeNewFile(path(WarehouseLayout.customers), customerRows(audit))
        try Disk.writeNewFile(path(WarehouseLayout.customerFactSources), factSourceRows(audit))
        try Disk.writeNewFile(
            path(WarehouseLayout.productEntitlements),
            rows(WarehouseLayout.productEntitlements, audit.rowEntitlements))
        try Disk.writeNewFile(
            path(WarehouseLayout.serviceEntitlements),
            rows(WarehouseLayout.serviceEntitlements, audit.serviceEntitlements))
        try Disk.writeNewFile(path(WarehouseLayout.mergedIDs), mergedRows(audit))
        try Disk.writeNewFile(path(WarehouseLayout.rejected), rejectedRows(audit))
        try Disk.writeNewFile(
            FileSystem.join(folder, "schema.sql"), Array(WarehouseSchema.script(for: nil).utf8))
        try Disk.writeNewFile(FileSystem.join(folder, "manifest.json"), manifest(audit))
    }

    private static func customerRows(_ audit: Audit) -> ByteBuffer {
        let out = ByteBuffer(capacity: 64 * audit.customers.count + 256)
        out.appendRaw(WarehouseLayout.customers.header)
        let comma = UInt8(ascii: ",")
        let service = audit.serviceEntitlements
        audit.customers.forEachVerdict { customer, _, _ in
            out.appendPlainCell(customer.id)
            out.append(comma)
            out.appendPlainCell(customer.platform?.rawValue)
            out.append(comma)
            out.appendPlainCell(customer.originalAppVersion)
            out.append(comma)
            out.appendPlainCell(customer.originalPurchaseDate)
            out.append(comma)
            out.appendPlainCell(customer.environment.rawValue)
            out.append(comma)
            out.appendPlainCell(customer.preorderDate)
            out.append(comma)
            out.appendPlainCell(customer.storefront)
            out.append(comma)
            out.appendPlainCell(customer.isOrphan)
            out.append(comma)
            out.appendPlainCell(customer.isUnlinked)
            out.append(comma)
            out.appendPlainCell(customer.provenance.hasConflictingFacts)
            out.append(comma)
            out.appendPlainCell(customer.provenance.rowSource?.code)
            out.append(comma)
            out.appendPlainCell(service[customer.id] != nil)
            out.append(comma)
            out.appendPlainCell(customer.orderClaims.isEmpty ? nil : customer.orderClaims.code)
            out.append(comma)
            out.appendPlainCell(customer.isLicensedOnlyAfterCutover)
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
            out.appendPlainCell(cell)
        }
        out.append(UInt8(ascii: "\n"))
    }

    private static func manifest(_ audit: Audit) throws(GrandfatherError) -> [UInt8] {
        let manifest = Manifest(
            toolVersion: ToolVersion.current, policyName: audit.policy.name, policySHA256: audit.policy.digest,
            asOf: audit.asOf.iso8601, inputs: audit.inputs, appStore: audit.appStore,
            salesPopulation: audit.population.isEmpty ? nil : SalesPopulationRecord(audit.population))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(manifest)) + [UInt8(ascii: "\n")]
        } catch {
            throw .internal("cannot encode manifest.json: \(error)")
        }
    }
}
