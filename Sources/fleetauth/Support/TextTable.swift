/// Rows printed as a table for a person: each column as wide as its widest entry, two spaces
/// between columns (`fleetauth audit`, `fleetauth keys list`).
enum TextTable {
    /// Prints `rows`, the header first.
    static func print(_ rows: [[String]]) {
        let widths = (rows.first ?? []).indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            Swift.print(
                zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                    .trimmingCharacters(in: .whitespaces))
        }
    }
}
