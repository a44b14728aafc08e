import Foundation
import PropertyBased
import Testing

@_spi(TestHooks) @testable import GrandfatherCore
@testable import GrandfatherEngine

/// Properties every audit has, whatever the input: random small datasets of customers and
/// transactions (duplicates, conflicts, orphans, sandbox rows, invalid rows, every spelling
/// and format) are written to files and audited in-process (stages 1–3).
///
/// A failure prints the shrunk dataset and a `.fixedSeed(…)` to reproduce it.
@Suite struct AuditPropertyTests {
    /// SPEC §6: for every file, rows read = accepted + rejected; every row written is read,
    /// exactly the invalid rows and the conflicting customer repeats are rejected, each with
    /// its file, line, a one-line reason and, for CSV, the column its field stands in.
    @Test func everyRowIsReadAndEitherAcceptedOrRejectedWithItsPlace() async throws {
        await propertyCheck(input: GeneratedDataset.generator) { dataset in
            let files = dataset.scatteredFiles(seed: 1)
            let audit = try Self.audit(files)
            let expected = ExpectedOutcome(dataset, files: files)
            try #require(audit.inputs.count == files.count)
            for (index, (file, report)) in zip(files, audit.inputs).enumerated() {
                let rejections = audit.rejections.filter { $0.file == report.path }
                #expect(report.path.hasSuffix("/" + file.name))
                #expect(report.kind == file.kind && report.format == file.format, "\(file.name)")
                #expect(report.rowsRead == report.rowsAccepted + report.rowsRejected, "\(file.name)")
                #expect(report.rowsRejected == rejections.count, "\(file.name)")
                #expect(report.rowsRead == expected.files[index].rowsRead, "\(file.name)")
                #expect(rejections.map(\.line) == expected.files[index].rejectedLines, "\(file.name)")
                #expect(report.sandboxRows == expected.files[index].sandboxRows, "\(file.name)")
                if file.kind == .customers {
                    #expect(report.exactDuplicates == expected.files[index].customerDuplicates, "\(file.name)")
                }
                for rejection in rejections {
                    #expect(rejection.line >= 1)
                    #expect(!rejection.reason.isEmpty && !rejection.reason.contains(where: \.isNewline))
                    #expect(rejection.reason.count <= 200, "a reason quotes at most an excerpt")
                    if let column = rejection.column {
                        #expect(file.format == .csv && file.header.indices.contains(column - 1))
                        if let field = rejection.field, file.header.indices.contains(column - 1) {
                            #expect(file.header[column - 1] == field, "\(rejection)")
                        }
                    }
                }
            }
            let transactionDuplicates = audit.inputs.filter { $0.kind == .transactions }.reduce(0) {
                $0 + $1.exactDuplicates
            }
            #expect(transactionDuplicates == expected.transactionDuplicates)
            #expect(audit.rowsRead == audit.rowsAccepted + audit.rowsRejected)
            #expect(audit.rowsRejected == audit.rejections.count)
        }
    }

    /// SPEC §4: every customer (accepted rows and orphans, nobody else) gets exactly one
    /// class; the counts per class add up to the customers; sandbox customers are excluded
    /// with `sandbox` alone; customers.csv has one row each.
    @Test func classesPartitionTheCustomers() async throws {
        await propertyCheck(input: GeneratedDataset.generator) { dataset in
            let files = dataset.singleFiles()
            let audit = try Self.audit(files)
            let expected = ExpectedOutcome(dataset, files: files)
            let ids = audit.customers.map(\.customer.id)
            #expect(Set(ids) == expected.customerIDs)
            #expect(ids.count == Set(ids).count, "one result per customer")
            #expect(zip(ids, ids.dropFirst()).allSatisfy { $0.codePointPrecedes($1) }, "in code-point order")
            var counted: [CustomerClass: Int] = [:]
            for result in audit.customers {
                counted[result.customerClass, default: 0] += 1
                let id = result.customer.id
                #expect((result.customerClass == .excluded) == expected.sandboxCustomers.contains(id), "\(id)")
                if result.customerClass == .excluded {
                    #expect(result.flags == [.sandbox] && result.entitlements.isEmpty, "\(id)")
                }
                #expect(result.customer.isOrphan == expected.orphans.contains(id), "\(id)")
                if result.customer.isOrphan { #expect(result.flags.contains(.orphanTransactions), "\(id)") }
                if ![.grandfathered, .subscriber].contains(result.customerClass) {
                    #expect(result.entitlements.isEmpty, "\(id): only the entitled hold grants")
                }
            }
            #expect(audit.classCounts.map(\.0) == CustomerClass.allCases)
            #expect(audit.classCounts.reduce(0) { $0 + $1.1 } == audit.customers.count)
            for (customerClass, count) in audit.classCounts {
                #expect(count == counted[customerClass, default: 0], "\(customerClass)")
            }
            let csvLines = CustomersCSV.render(audit).filter { $0 == 0x0A }.count
            #expect(csvLines == audit.customers.count + 1, "a header and one row per customer")
        }
    }

    /// SPEC §8.7, §8.23: without customer ids repeated with other content, the audit does not
    /// depend on the order of the files, the order of rows, or how rows are split into files
    /// and formats.
    @Test func resultIgnoresFileOrderRowOrderAndSplitting() async throws {
        await propertyCheck(input: GeneratedDataset.generator) { generated in
            let dataset = generated.withoutConflictingCustomers
            let whole = Canonical(try Self.audit(dataset.singleFiles()))
            for seed: UInt64 in [2, 3] {
                let scattered = Canonical(try Self.audit(dataset.scatteredFiles(seed: seed)))
                #expect(scattered == whole, "scattered with seed \(seed)")
            }
        }
    }

    /// Parsing transactions files in ranges on every core gives what one pass gives: the same
    /// customers, rejections at the same lines, the same accounting per file.
    @Test func cuttingFilesIntoRangesGivesTheOnePassResult() async throws {
        await propertyCheck(input: GeneratedDataset.generator, Gen.int(in: 2...12)) { dataset, parts in
            let files = dataset.scatteredFiles(seed: 4)
            let onePass = Exact(try Self.audit(files, options: IngestOptions(parts: 1, minimumPartSize: 1)))
            let ranges = Exact(try Self.audit(files, options: IngestOptions(parts: parts, minimumPartSize: 1)))
            #expect(ranges == onePass, "cut into \(parts) parts")
        }
    }

    // MARK: - Running and comparing

    static let policy: Policy = {
        do {
            return try PolicyLoader.parse(data: Data(PolicySpec().json.utf8), file: "policy.json")
        } catch {
            preconditionFailure("the fixture policy is valid: \(error)")
        }
    }()

    /// Writes `files` into a fresh folder, in this order, and audits them.
    static func audit(_ files: [DatasetFile], options: IngestOptions = IngestOptions()) throws -> Audit {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "grandfather-props-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for file in files {
            let url = folder.appendingPathComponent(file.name)
            try Data(file.bytes).write(to: url)
            paths.append(url.path)
        }
        var hooks = TestHooks()
        hooks.ingest = options
        return try Pipeline.audits(
            [AuditSettings(policy: policy, asOf: Instant(seconds: Pools.asOf))], inputs: paths, hooks: hooks)[0]
    }
}

/// What must not depend on files, their order or their formats: customers.csv byte for byte,
/// every grant with its transaction and end, the cutover answers, and the totals.
struct Canonical: Equatable, CustomStringConvertible {
    var customersCSV: String
    var grants: [String]
    var rowsRead: Int
    var rowsRejected: Int
    var exactDuplicates: Int
    var sandboxRows: Int

    init(_ audit: Audit) {
        customersCSV = String(decoding: CustomersCSV.render(audit), as: UTF8.self)
        grants = audit.customers.map { result in
            let grants = result.entitlements.map {
                "\($0.entitlement):\($0.source.rawValue):\($0.transactionID ?? "-"):\($0.expiresDate?.iso8601 ?? "-")"
            }
            return "\(result.customer.id) \(result.answers) \(grants)"
        }
        rowsRead = audit.rowsRead
        rowsRejected = audit.rowsRejected
        exactDuplicates = audit.inputs.reduce(0) { $0 + $1.exactDuplicates }
        sandboxRows = audit.inputs.reduce(0) { $0 + $1.sandboxRows }
    }

    var description: String {
        "\(customersCSV)\(grants.joined(separator: "\n"))\nread \(rowsRead), rejected \(rowsRejected), "
            + "duplicates \(exactDuplicates), sandbox \(sandboxRows)"
    }
}

/// Everything one run over the same files gives: the canonical part, every rejection with its
/// place, and every file's report (the file names are the same, so paths are left out).
struct Exact: Equatable {
    var canonical: Canonical
    var rejections: [String]
    var reports: [String]

    init(_ audit: Audit) {
        canonical = Canonical(audit)
        rejections = audit.rejections.map {
            "\(URL(fileURLWithPath: $0.file).lastPathComponent):\($0.line):\($0.column ?? 0) \($0.field ?? "-") \($0.reason)"
        }
        reports = audit.inputs.map {
            "\(URL(fileURLWithPath: $0.path).lastPathComponent) \($0.format) \($0.kind) \($0.sizeBytes) \($0.sha256) "
                + "\($0.rowsRead) \($0.rowsAccepted) \($0.rowsRejected) \($0.exactDuplicates) \($0.sandboxRows)"
        }
    }
}
