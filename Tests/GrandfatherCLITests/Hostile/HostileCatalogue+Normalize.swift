import Foundation

/// `grandfather normalize --out`, attacked (issue 33: 1, 9 and part of 12): a folder it did not
/// write, a run killed while it replaces its folder, a folder's mode, an empty `--out`. The
/// kill at every point of the replace is `NormalizeReplaceTests`'s.
extension HostileCatalogue {
    /// `normalize` of `good.csv` into `out`, as a command line.
    static func normalizing(into out: String, _ extra: String = "") -> String {
        "\"$GRANDFATHER\" normalize --policy policy.json --as-of 2024-06-01T00:00:00Z --out \(out)\(extra) good.csv"
    }

    /// A good `normalize` into `w`, one killed at `point` (its stderr and the shell's
    /// "Killed" line dropped), then the run whose output the case checks.
    static func normalizeAfterAKill(at point: String) -> HostileCase.Maker {
        { _ in
            .script(
                "exec 3>&2 2>/dev/null; \(normalizing(into: "w")) >/dev/null; "
                    + "\(normalizing(into: "w", " --test-kill-at \(point)")) >/dev/null; "
                    + "exec 2>&3 3>&-; exec \(normalizing(into: "w"))")
        }
    }

    static let normalizeFolders: [HostileCase] = [
        HostileCase(
            input: "`normalize --out` into a project folder holding `manifest.json` and `schema.sql`", origin: "33.1",
            make: { cli in
                for (name, text) in [
                    ("manifest.json", "{\"name\": \"my project\"}\n"), ("schema.sql", "CREATE TABLE notes (id INT);\n"),
                    ("src/main.swift", "print(\"hello\")\n"), (".git/HEAD", "ref: refs/heads/main\n"),
                    ("notes.md", "do not lose\n"),
                ] {
                    try cli.write("project/" + name, text)
                }
                return .arguments([
                    "normalize", "--policy", "policy.json", "--out", "project", "good.csv",
                ])
            }, exit: 2,
            stderr: .line(
                "error: --out project is not replaced: it holds no .grandfather-normalize, the file normalize writes "
                    + "in its folders (older versions did not); remove it yourself or choose another folder"),
            checks: [.untouched("project"), .absent("project/customers.csv")], keepsLatest: false),
        HostileCase(
            input: "`normalize` killed while building its folder, then run again", origin: "33.9",
            make: normalizeAfterAKill(at: "after-building"), exit: 0,
            stderr: .line("warning: a killed normalize into w left its folders behind: removed .w.normalize-building"),
            checks: [.stdout("→ w"), .file("w/.grandfather-normalize", contains: "grandfather normalize")],
            keepsLatest: false),
        HostileCase(
            input: "`normalize` killed between its two renames (no `OUT`), then run again", origin: "33.9",
            make: normalizeAfterAKill(at: "after-first-rename"), exit: 0,
            stderr: .line(
                "warning: a killed normalize into w left its folders behind: moved .w.normalize-replaced back to w; "
                    + "removed .w.normalize-building"),
            checks: [
                .stdout("→ w"), .file("w/.grandfather-normalize", contains: "grandfather normalize"),
                .absent(".w.normalize-replaced"),
            ], keepsLatest: false),
        .read("`normalize` into a folder made 0700 keeps it 0700", "33.12", [.stdout("mode 700")]) { _ in
            .script(
                "\(normalizing(into: "w")) >/dev/null && chmod 700 w && \(normalizing(into: "w")) >/dev/null && "
                    + "echo \"mode $(stat -c %a w)\"")
        },
        HostileCase(
            input: "`normalize --out ''`", origin: "33.12",
            make: { _ in .arguments(["normalize", "--policy", "policy.json", "--out", "", "good.csv"]) }, exit: 2,
            stderr: .line("error: --out '' names no folder of its own; give the folder to write, as --out warehouse"),
            keepsLatest: false),
    ]
}
