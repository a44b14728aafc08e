import Foundation
import GrandfatherEngine

/// The files a table is in. Most tables are one file, `NAME.csv`. The transactions are
/// numbered parts, `transactions-00001.csv`, `transactions-00002.csv`, …, each with the
/// header, read in their names' order: `normalize` names the files its parsers wrote as
/// parts rather than copying them into one (`RecordLog`), and every warehouse loads a
/// pattern of files as one table. A folder written before the parts holds one
/// `transactions.csv`, which is read as it is.
extension WarehouseLayout.Table {
    /// The name of part `number` (from 1).
    public func partName(_ number: Int) -> String {
        let digits = String(number)
        return name + "-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + ".csv"
    }

    /// The glob that matches every part's name and no other table's file.
    public var partPattern: String { name + "-*.csv" }

    /// How docs/Warehouse.md names the table's files.
    var filesTitle: String {
        inParts ? "`\(partName(1))`, `\(partName(2))`, …" : "`\(fileName)`"
    }

    /// Whether `file` (a name, no folder) is one of the table's parts: whether `partPattern`
    /// matches it, as it does for the warehouses, which read every file it matches.
    func isPart(_ file: String) -> Bool {
        inParts && file.utf8.count >= name.utf8.count + 5 && file.hasPrefix(name + "-") && file.hasSuffix(".csv")
    }

    /// The paths of the table's files in `folder`, in reading order: its parts, or the one
    /// file an older `normalize` wrote; empty when there are none.
    public func files(in folder: String) -> [String] {
        if inParts {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            // By length first: part 100000 follows part 99999.
            let parts = names.filter(isPart).sorted { ($0.utf8.count, $0) < ($1.utf8.count, $1) }
            if !parts.isEmpty { return parts.map { FileSystem.join(folder, $0) } }
        }
        let path = FileSystem.join(folder, fileName)
        return FileSystem.isRegularFile(path) ? [path] : []
    }
}
