import Foundation
import GrandfatherCore
import Testing

/// Docs generated from code must match it; `scripts/update-docs` regenerates them.
@Suite struct DocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func readmeFlagTableIsCurrent() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- flag-table:begin -->\n"))
        let end = try #require(readme.range(of: "<!-- flag-table:end -->"))
        let table = String(readme[begin.upperBound..<end.lowerBound])
        #expect(table == FlagTable.markdown(), "README.md flag table is stale: run scripts/update-docs")
    }

    @Test func warehouseLayoutIsCurrent() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/Warehouse.md"), encoding: .utf8)
        let begin = try #require(doc.range(of: "<!-- warehouse-layout:begin -->\n"))
        let end = try #require(doc.range(of: "<!-- warehouse-layout:end -->"))
        let table = String(doc[begin.upperBound..<end.lowerBound])
        #expect(table == WarehouseLayout.markdown(), "docs/Warehouse.md's layout is stale: run scripts/update-docs")
        let cli = try CLI()
        #expect(try cli.run(["layout"]).stdout == WarehouseLayout.markdown())
    }

    /// The table of what each transaction shape states, from `TransactionShape.facts`;
    /// `RECORD_DOCS=1 scripts/test` rewrites it, to be reviewed in `git diff`.
    @Test func shapeTableIsTheCode() throws {
        try Self.checkBlock(
            "shape-facts", in: "docs/RevenueCat.md", is: TransactionShape.markdownTable(),
            from: "TransactionShape.facts")
    }

    /// Requires the text of `file` (a path from the repository's root) between
    /// `<!-- marker:begin -->` and `<!-- marker:end -->` to be `table`; with `RECORD_DOCS=1`,
    /// writes it there instead.
    static func checkBlock(_ marker: String, in file: String, is table: String, from source: String) throws {
        let path = root.appendingPathComponent(file)
        let readme = try String(contentsOf: path, encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- \(marker):begin -->\n"))
        let end = try #require(readme.range(of: "<!-- \(marker):end -->"))
        if ProcessInfo.processInfo.environment["RECORD_DOCS"] == "1" {
            try (readme[..<begin.upperBound] + table + readme[end.lowerBound...]).write(
                to: path, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            String(readme[begin.upperBound..<end.lowerBound]) == table,
            "\(file)'s \(marker) block is not \(source): run RECORD_DOCS=1 scripts/test")
    }

    /// Every Swift rule the SQL twin says a step mirrors (`-- SPEC §…; mirrors Type.member
    /// (Folder/File.swift)`, as `grandfather sql` prints them) exists: each file named, each
    /// type declared, and each member declared in a file that declares or extends its type. A
    /// rule moved or renamed leaves no step citing what is gone.
    @Test func everySQLStepCitesARuleThatExists() throws {
        let cli = try CLI()
        try cli.write("policy.json", SmallData.policy)
        let script = try cli.run(["sql", "--policy", "policy.json", "--as-of", SmallData.asOf, "--dialect", "duckdb"])
        #expect(script.status == 0, "\(script.stderr)")
        let citations = script.stdout.split(separator: "\n").compactMap { line -> Substring? in
            guard line.contains("-- "), let mirrors = line.range(of: "; mirrors ") else { return nil }
            return line[mirrors.upperBound...]
        }
        #expect(citations.count >= 10, "the script's steps cite their rules: \(citations)")
        let sources = Self.root.appendingPathComponent("Sources/GrandfatherCore")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        let texts = try files.map { try String(contentsOf: sources.appendingPathComponent($0), encoding: .utf8) }
        func declares(_ type: Substring, _ text: String) -> Bool {
            text.range(of: #"(enum|struct|class|protocol|extension) \#(type)\b"#, options: .regularExpression) != nil
        }
        for citation in citations {
            for path in citation.matches(of: /[A-Za-z+\/]+\.swift/) {
                #expect(files.contains(String(path.output)), "\(citation): no file \(path.output)")
            }
            for cited in citation.matches(of: /\b([A-Z][A-Za-z]*)\.([a-z][A-Za-z]*)\b/) {
                let (type, member) = (cited.output.1, cited.output.2)
                guard !cited.output.0.hasSuffix("swift") else { continue }
                let holders = texts.filter { declares(type, $0) }
                #expect(!holders.isEmpty, "\(citation): no type \(type)")
                let pattern =
                    member == "init"
                    ? #"\binit[(<]"# : #"(func|var|let|case) \#(member)\b"#
                let found = holders.contains { $0.range(of: pattern, options: .regularExpression) != nil }
                #expect(found, "\(citation): \(type) declares no \(member)")
            }
        }
    }

    /// CONTRIBUTING.md's folder map and the DocC article Architecture's are
    /// docs/folder-map.txt's, and it describes every folder there is and none that is gone
    /// (`scripts/folder-map --write` rewrites the two maps).
    @Test func folderMapIsCurrent() throws {
        let check = try Self.folderMap(["--check"])
        #expect(check.status == 0, "scripts/folder-map --check:\n\(check.output)")
        #expect(check.output.isEmpty, "\(check.output)")
    }

    /// The checker can fail: on a small repository of its own, a folder with no description, a
    /// description of a folder that is gone and a stale map each fail it, naming what is wrong.
    @Test func folderMapCheckFailsOnEachProblem() throws {
        let repository = try CLI()
        let root = ["--root", repository.folder.path]
        let map = "Sources/GrandfatherCore/\n    the library\ndocs/\n    the documentation\n"
        let markers = "<!-- folder-map:begin -->\n<!-- folder-map:end -->\n"
        try repository.write("docs/folder-map.txt", map)
        try repository.write("CONTRIBUTING.md", "# Contributing\n\n" + markers)
        try repository.write(
            "Sources/GrandfatherCore/GrandfatherCore.docc/Architecture.md", "# Architecture\n\n" + markers)
        let written = try Self.folderMap(["--write"] + root)
        #expect(written.status == 0, "\(written.output)")
        let current = try Self.folderMap(["--check"] + root)
        #expect(current.status == 0 && current.output.isEmpty, "\(current.output)")

        try repository.write("Sources/GrandfatherCore/Inputs/Claims/ClaimedOrderSource.swift", "")
        let undescribed = try Self.folderMap(["--check"] + root)
        #expect(undescribed.status == 1)
        #expect(
            undescribed.output.contains("Sources/GrandfatherCore/Inputs/Claims/ has no description"),
            "\(undescribed.output)")
        try FileManager.default.removeItem(atPath: repository.path("Sources/GrandfatherCore/Inputs"))

        try repository.write("docs/folder-map.txt", map + "Sources/Gone/\n    a folder since removed\n")
        let gone = try Self.folderMap(["--check"] + root)
        #expect(gone.status == 1)
        #expect(gone.output.contains("Sources/Gone/ is described, but there is no such folder"), "\(gone.output)")
        #expect(gone.output.contains("CONTRIBUTING.md: its folder map is not"), "\(gone.output)")
    }

    /// Runs `scripts/folder-map` with `arguments`: its exit status, and what it printed on
    /// standard output and error together (joined by the shell, so one pipe holds both).
    static func folderMap(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try Subprocess.run(
            "/bin/sh",
            ["-c", #"exec python3 "$0" "$@" 2>&1"#, root.appendingPathComponent("scripts/folder-map").path] + arguments)
        return (result.status, result.stdout)
    }

    /// README.md's sample run is a real one: `scripts/sample`'s audit, run again at the
    /// instant its run id names (the run's as-of, as `scripts/sample` audits as of now),
    /// prints the block's summary line, and the snapshot's classes and the run folder's
    /// files are the block's.
    @Test func readmeSampleRunIsARealRun() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- sample-run:begin -->\n"))
        let end = try #require(readme.range(of: "<!-- sample-run:end -->"))
        let lines = readme[begin.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
        func output(of command: String) throws -> [String] {
            let start = try #require(lines.firstIndex(of: "$ " + command), "the block runs \(command)")
            return Array(lines[(start + 1)...].prefix { !$0.hasPrefix("$ ") && !$0.hasPrefix("```") && !$0.isEmpty })
        }
        let printed = try output(of: "scripts/sample")
        #expect(printed.count == 2)
        let (cli, result) = try Self.auditSample(asOf: try Self.sampleAsOf(printed.last ?? ""))
        let ran = result.stdout.split(separator: "\n").map(String.init)
        #expect(ran.first == printed.first, "README.md's sample run says \(printed.first ?? ""), the run \(ran)")
        #expect(ran.last?.hasPrefix("reports/runs/") == true && ran.last?.hasSuffix(" → reports/latest") == true)

        let classes = try output(
            of: "sqlite3 reports/latest/snapshot.sqlite \"select class, count(*) from customers group by class\"")
        let dump = try SnapshotDump(path: cli.path("reports/latest/snapshot.sqlite"))
        // As sqlite3 prints them: texts unquoted.
        let counted = try dump.rows("(SELECT class, count(*) FROM customers GROUP BY class)").map {
            $0.replacingOccurrences(of: "\"", with: "")
        }
        #expect(counted == classes.sorted(), "the snapshot counts \(counted), README.md shows \(classes)")

        let listed = try output(of: "ls reports/latest/").flatMap { $0.split(separator: " ").map(String.init) }
        let files = try FileManager.default.contentsOfDirectory(atPath: cli.path("reports/latest")).sorted()
        #expect(files == listed)
    }

    /// The as-of of README.md's sample run: the instant its run id names (`scripts/sample`
    /// audits as of now), from the line `reports/runs/20261122T002237.017Z-16180 → …`.
    static func sampleAsOf(_ runLine: String) throws -> String {
        let id = try #require(runLine.split(separator: " ").first?.split(separator: "/").last.map(String.init))
        let stamp = Array(id.prefix(20))
        try #require(stamp.count == 20, "a run id: \(id)")
        return String(stamp[0..<4]) + "-" + String(stamp[4..<6]) + "-" + String(stamp[6..<8]) + "T"
            + String(stamp[9..<11]) + ":" + String(stamp[11..<13]) + ":" + String(stamp[13..<19]) + "Z"
    }

    /// `scripts/sample`'s audit at `asOf`, its globs expanded in their order, into `reports/` of
    /// a fresh folder that also holds a copy of `sample-data/`.
    static func auditSample(asOf: String) throws -> (CLI, CLI.Result) {
        let sampleData = Self.root.appendingPathComponent("sample-data")
        let names = try FileManager.default.contentsOfDirectory(atPath: sampleData.path).sorted()
        let inputs = [
            ("customers", ".csv"), ("customers", ".json"), ("transactions", ".csv"), ("transactions", ".jsonl"),
        ]
        .flatMap { prefix, suffix in names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) } }
        let cli = try CLI()
        for name in ["policy.json"] + inputs { try cli.copy(sampleData.appendingPathComponent(name)) }
        try FileManager.default.copyItem(at: sampleData, to: cli.folder.appendingPathComponent("sample-data"))
        let result = try cli.run(["audit", "--policy", "policy.json", "--as-of", asOf, "--out", "reports"] + inputs)
        #expect(result.status == 0, "\(result.stderr)")
        return (cli, result)
    }

    /// README.md's tour is real: each command, run by the shell on the sample run above (its
    /// folder as `readmeSampleRunIsARealRun` makes it, `grandfather` on the PATH), prints the
    /// block's lines, but for run ids, which name the moment a run was made.
    @Test func readmeTourIsReal() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        func block(_ name: String) throws -> [String] {
            let begin = try #require(readme.range(of: "<!-- \(name):begin -->\n"))
            let end = try #require(readme.range(of: "<!-- \(name):end -->"))
            return readme[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
                .map(String.init).filter { !$0.hasPrefix("```") }
        }
        let sample = try block("sample-run")
        let runLine = try #require(sample.first { $0.hasPrefix("reports/runs/") })
        let (cli, _) = try Self.auditSample(asOf: try Self.sampleAsOf(runLine))
        let lines = try block("tour")
        var steps: [(command: String, expected: [String])] = []
        for line in lines {
            if line.hasPrefix("$ ") {
                steps.append((String(line.dropFirst(2)), []))
            } else if !line.isEmpty, !steps.isEmpty {
                steps[steps.count - 1].expected.append(line)
            }
        }
        // Issue 52: a tour of the audit, the classes, one customer, two policies, a mapped export
        // and the warehouse SQL, in a README a reader finishes.
        #expect(steps.count >= 6)
        #expect(steps.contains { $0.command.contains(" --map ") }, "the tour reads a team's own export")
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 251, "README.md ≤ 250 lines")
        let runID = /\d{8}T\d{6}\.\d{3}Z-\d+/
        let bin = CLI.executable.deletingLastPathComponent().path
        for (command, expected) in steps {
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            let (status, stdout) = try Subprocess.run(
                "/bin/sh", ["-c", command], in: cli.folder, environment: environment)
            #expect(status == 0, "\(command)")
            let printed = stdout.split(separator: "\n").map {
                String($0).replacing(runID, with: "RUN")
            }
            #expect(printed == expected.map { String($0.replacing(runID, with: "RUN")) }, "\(command)")
        }
    }

    /// Every `SPEC §…` and `FORMATS.md §…` the sources cite is a section of the documents in
    /// the repository (docs/Specification.md, docs/Formats.md): `§N` a `## N.` heading, `§8.N`
    /// reading N of §8, `FORMATS.md §x` a `## x.` heading.
    @Test func everyCitedSectionIsInTheRepository() throws {
        let spec = try String(contentsOf: Self.root.appendingPathComponent("docs/Specification.md"), encoding: .utf8)
        let formats = try String(contentsOf: Self.root.appendingPathComponent("docs/Formats.md"), encoding: .utf8)
        func headings(_ text: String) -> Set<String> {
            Set(
                text.split(separator: "\n").compactMap { line -> String? in
                    guard line.hasPrefix("## "), let dot = line.dropFirst(3).firstIndex(of: ".") else { return nil }
                    return String(line.dropFirst(3)[..<dot])
                })
        }
        let sections = headings(spec)
        let formatSections = headings(formats)
        // §8's readings: the numbered items between its heading and §9's.
        let eight =
            spec.components(separatedBy: "\n## 8.").dropFirst().first?.components(separatedBy: "\n## 9.").first ?? ""
        let readings = Set(
            eight.split(separator: "\n").compactMap { line -> String? in
                let number = line.prefix { $0.isNumber }
                return !number.isEmpty && line.dropFirst(number.count).hasPrefix(". ") ? "8.\(number)" : nil
            })
        #expect(sections.isSuperset(of: (2...9).map(String.init)) && readings.count >= 25 && formatSections.count >= 9)

        let sources = Self.root.appendingPathComponent("Sources")
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" || $0.pathExtension == "md" } ?? []
        var cited = 0
        let spans = try Regex(#"SPEC ((?:§[0-9]+(?:\.[0-9]+)?(?:[–-][0-9]+(?:\.[0-9]+)?)?(?:, | and | or |; )?)+)"#)
        let one = try Regex(#"§([0-9]+)(?:\.([0-9]+))?(?:[–-]([0-9]+)(?:\.([0-9]+))?)?"#)
        let format = try Regex(#"FORMATS\.md §([0-9a-z]+)"#)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for span in text.matches(of: spans) {
                for citation in span.output[1].substring.map(String.init).map({ $0.matches(of: one) }) ?? [] {
                    let section = citation.output[1].substring.map(String.init) ?? ""
                    cited += 1
                    guard let item = citation.output[2].substring.map(String.init) else {
                        #expect(sections.contains(section), "\(file.lastPathComponent) cites SPEC §\(section)")
                        continue
                    }
                    #expect(
                        readings.contains("\(section).\(item)"),
                        "\(file.lastPathComponent) cites SPEC §\(section).\(item)")
                    if let last = citation.output[4].substring.map(String.init) {
                        #expect(readings.contains("8.\(last)"), "\(file.lastPathComponent) cites SPEC §…–8.\(last)")
                    }
                }
            }
            for citation in text.matches(of: format) {
                let section = citation.output[1].substring.map(String.init) ?? ""
                cited += 1
                #expect(formatSections.contains(section), "\(file.lastPathComponent) cites FORMATS.md §\(section)")
            }
        }
        #expect(cited > 200, "the sources cite the documents \(cited) times")
    }

    @Test func flagsCommandPrintsTheCatalog() throws {
        let cli = try CLI()
        let result = try cli.run(["flags"])
        #expect(result.status == 0)
        #expect(result.stdout == FlagTable.markdown())
        for flag in Flag.allCases { #expect(result.stdout.contains("`\(flag.code)`")) }
    }
}
