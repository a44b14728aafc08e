import ArgumentParser
import GrandfatherCore

/// `grandfather layout`: the warehouse layout that `normalize` writes and `sql` reads.
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Print the warehouse layout (normalize's files, sql's tables), column by column, as Markdown."
    )

    func run() {
        print(WarehouseLayout.markdown(), terminator: "")
    }
}
