import ArgumentParser
import GrandfatherCore

/// `grandfather flags`: the flag catalog, for reviewers and for the README.
struct FlagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flags",
        abstract: "List every flag with its severity and explanation (a Markdown table)."
    )

    func run() {
        print(FlagTable.markdown(), terminator: "")
    }
}
