import ArgumentParser
import GrandfatherCore

/// `grandfather map --suggest`: a draft mapping for a team's own export (issue 52).
struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Draft a mapping that reads your own export's columns, spellings and times as SPEC §2's fields.",
        discussion: """
            Reads the header (or JSON keys) and the first rows of each FILE (CSV, JSON Lines or a JSON \
            array) and prints a draft mapping (JSON) on standard output: the column that holds each field, \
            the spellings of platforms, product types, environments, ownership and renewal states it \
            recognises, and the form of each time column (ISO-8601 with or without a zone, \
            yyyy-MM-dd HH:mm:ss, epoch seconds or milliseconds, US or day-first dates). What it could not \
            decide is listed under each file's "undecided", with a null where the answer goes, and named on \
            standard error: decide each, then remove the list.
            """
    )

    @ArgumentParser.Flag(name: .long, help: "Suggest a draft mapping from the files (the only mode there is).")
    var suggest = false

    @Argument(help: "Your export's files: customers and transactions, CSV or JSON.")
    var files: [String]

    func validate() throws {
        guard suggest else { throw ValidationError("give --suggest: map drafts a mapping from your files") }
        guard !files.isEmpty else { throw ValidationError("give the files to suggest a mapping for") }
    }

    func run() throws {
        let draft = try MappedExports.suggest(files)
        print(draft.json, terminator: "")
        for line in draft.undecided { Stderr.line("grandfather: undecided: " + TerminalText.safe(line)) }
    }
}
