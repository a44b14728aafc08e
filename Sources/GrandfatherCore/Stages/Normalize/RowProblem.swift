/// Why one row was not accepted: the field, its CSV column, and a one-line reason.
struct RowProblem: Error, Equatable {
    var field: String?
    var column: Int?
    var reason: String
}
