import Foundation

/// Where the vehicles are, by cells of a fixed grid of latitude and longitude
/// (``cellDegrees`` square), so that a search around a point looks at the vehicles of the
/// cells its circle may reach, not at the whole fleet. It only narrows the search: callers
/// measure each candidate's distance themselves.
///
/// The cells a circle may reach are those of its bounding box on the sphere: the latitudes
/// within the radius, and the longitudes within `asin(sin(r) / cos(latitude))` of the center
/// (every longitude when the circle holds a pole), wrapped across the antimeridian. When the
/// box has more cells than the grid has occupied ones (near a pole, or a sparse fleet), the
/// occupied cells are looked at instead.
struct SpatialGrid: Sendable {
    /// A cell's side, in degrees: about 1.1 km of latitude.
    static let cellDegrees = 0.01
    /// Cells around the earth along a parallel.
    private static let columns = Int(360 / cellDegrees)

    /// A cell: its row counted from the south pole, its column from the antimeridian eastwards.
    private struct Cell: Hashable {
        let row: Int
        let column: Int
    }

    /// The ids in each occupied cell, unordered.
    private var cells: [Cell: [String]] = [:]
    /// The cell of each placed id.
    private var cellOf: [String: Cell] = [:]

    /// Places `id` at `point`, moving it from where it was; `nil` takes it off the grid.
    mutating func place(_ id: String, at point: LatLng?) {
        let cell = point.map(Self.cell(of:))
        let old = cellOf[id]
        guard old != cell else { return }
        if let old { remove(id, from: old) }
        if let cell {
            cells[cell, default: []].append(id)
            cellOf[id] = cell
        } else {
            cellOf[id] = nil
        }
    }

    /// The occupied cells a circle of `radiusMeters` around `center` may reach, nearest first:
    /// each with its ids and a lower bound of their distance from `center` in meters. Every id
    /// within the radius is in one of them, and no id of a cell is nearer than its bound, so a
    /// search that has what it needs nearer than the next cell's bound may stop there.
    func cells(within radiusMeters: Double, of center: LatLng) -> [(nearest: Double, ids: [String])] {
        let reach = Self.reach(of: radiusMeters, around: center)
        var found: [(nearest: Double, ids: [String])] = []
        func add(_ cell: Cell, _ ids: [String]) {
            let nearest = Self.nearestDistance(to: cell, from: center)
            if nearest <= radiusMeters { found.append((nearest, ids)) }
        }
        if reach.cellCount > cells.count {
            for (cell, ids) in cells where reach.contains(cell) { add(cell, ids) }
        } else {
            for row in reach.rows {
                for column in reach.columns {
                    let cell = Cell(row: row, column: Self.wrapped(column))
                    if let ids = cells[cell] { add(cell, ids) }
                }
            }
        }
        found.sort { $0.nearest < $1.nearest }
        return found
    }

    /// A lower bound, in meters, of the distance from `center` to any point of `cell`: exact
    /// (the nearest point is on the cell's meridian nearest in longitude, or inside it) less a
    /// meter, which covers the rounding of `acos` near zero.
    private static func nearestDistance(to cell: Cell, from center: LatLng) -> Double {
        let radians = Double.pi / 180
        let south = Double(cell.row) * cellDegrees - 90, north = south + cellDegrees
        let west = Double(cell.column) * cellDegrees - 180, east = west + cellDegrees
        let offset = { (longitude: Double) in
            abs((longitude - center.longitude + 540).truncatingRemainder(dividingBy: 360) - 180)
        }
        let insideBand = offset(west) + offset(east) <= cellDegrees + 1e-12
        let longitudeOffset = insideBand ? 0 : min(offset(west), offset(east)) * radians
        // On that meridian, cos(distance) = a·sin(φ) + b·cos(φ): a sinusoid in φ whose largest
        // value over [south, north] is at its crest when that lies between, else at an end.
        let a = sin(center.latitude * radians), b = cos(center.latitude * radians) * cos(longitudeOffset)
        let crest = min(max(atan2(a, b), south * radians), north * radians)
        let closest = [south * radians, north * radians, crest].map { a * sin($0) + b * cos($0) }.max()!
        return max(0, acos(min(1, closest)) * LatLng.earthRadiusMeters - 1)
    }

    private mutating func remove(_ id: String, from cell: Cell) {
        // Changed where it is kept: a copy taken out of the dictionary would be copied again,
        // whole, by its first change.
        guard let index = cells[cell]?.firstIndex(of: id), let count = cells[cell]?.count else { return }
        guard count > 1 else {
            cells[cell] = nil
            return
        }
        cells[cell]?.swapAt(index, count - 1)
        cells[cell]?.removeLast()
    }

    /// The rows and columns (unwrapped: they may pass the antimeridian) of a circle's bounding box.
    private struct Reach {
        let rows: ClosedRange<Int>
        let columns: ClosedRange<Int>

        /// How many cells the box has.
        var cellCount: Int { rows.count * columns.count }

        /// Whether `cell` is in the box.
        func contains(_ cell: Cell) -> Bool {
            guard rows.contains(cell.row) else { return false }
            if columns.count >= SpatialGrid.columns { return true }
            // The column, or the same column one turn round the earth further east or west.
            return columns.contains(cell.column) || columns.contains(cell.column + SpatialGrid.columns)
                || columns.contains(cell.column - SpatialGrid.columns)
        }
    }

    private static func reach(of radiusMeters: Double, around center: LatLng) -> Reach {
        // A hair more than the radius, so that rounding never leaves out a point on the circle.
        let angle = radiusMeters / LatLng.earthRadiusMeters
        let angleDegrees = angle * 180 / .pi + 1e-9
        let south = center.latitude - angleDegrees, north = center.latitude + angleDegrees
        let rows = row(of: max(south, -90))...row(of: min(north, 90))
        let ratio = sin(angle) / cos(center.latitude * .pi / 180)
        guard south > -90, north < 90, ratio < 1 else { return Reach(rows: rows, columns: 0...(columns - 1)) }
        let spread = asin(ratio) * 180 / .pi + 1e-9
        let first = column(of: center.longitude - spread), last = column(of: center.longitude + spread)
        return Reach(rows: rows, columns: last - first + 1 >= columns ? 0...(columns - 1) : first...last)
    }

    private static func cell(of point: LatLng) -> Cell {
        Cell(row: row(of: point.latitude), column: wrapped(column(of: point.longitude)))
    }

    private static func row(of latitude: Double) -> Int {
        Int(((latitude + 90) / cellDegrees).rounded(.down))
    }

    /// The column of `longitude`, not wrapped: below 0 west of -180, at or above ``columns`` east of 180.
    private static func column(of longitude: Double) -> Int {
        Int(((longitude + 180) / cellDegrees).rounded(.down))
    }

    private static func wrapped(_ column: Int) -> Int {
        ((column % columns) + columns) % columns
    }
}
