import ArgumentParser
import GrandfatherCore

/// `grandfather explain`: one customer as a snapshot recorded it, for a person.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain one customer's class, flags and entitlements from a snapshot.",
        discussion: """
            Prints the facts used (version and purchase date against the cutover), the \
            transactions that decided, the entitlements, the flags and the rule that decided the \
            class. Exit codes: 0 printed, 1 the snapshot is missing or unreadable, 2 usage, or \
            the customer is not in the snapshot.
            """
    )

    @Argument(help: "The customer id, exactly as in the inputs (compared by code points).")
    var customerID: String

    @Option(
        name: .long,
        help: "A snapshot file, a run folder holding snapshot.sqlite, or an output folder (its latest run is read).")
    var snapshot: String = "reports/latest/snapshot.sqlite"

    func run() throws {
        let path = Explanation.snapshotFile(named: snapshot)
        let explanation = try Explanation.read(customerID: customerID, snapshot: path)
        print(ExplanationText.render(explanation, snapshot: path), terminator: "")
    }
}
