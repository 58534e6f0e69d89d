import Foundation

/// One reported position of a vehicle.
struct TrailPoint: Sendable, Equatable {
    let latitude: Double
    let longitude: Double
    /// When the position was reported, seconds since 1970.
    let time: Double

    var latLng: LatLng { LatLng(latitude: latitude, longitude: longitude) }
}

/// The last positions one vehicle reported, oldest first, at most ``capacity``: a ring, so that
/// recording one costs the same however long the vehicle has been driving.
struct LocationTrail: Sendable {
    /// How many positions are kept.
    let capacity: Int
    private var points: [TrailPoint] = []
    /// The oldest point's slot once the ring is full.
    private var start = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Adds `point`, unless it repeats the last one (an update that did not move the vehicle
    /// and carries the same time).
    mutating func append(_ point: TrailPoint) {
        if let last = self.last, last == point { return }
        if points.count < capacity {
            points.append(point)
        } else {
            points[start] = point
            start = (start + 1) % capacity
        }
    }

    /// The newest point.
    var last: TrailPoint? {
        points.isEmpty ? nil : points[(start + points.count - 1) % points.count]
    }

    /// The points reported from `from` to `to` (seconds since 1970, inclusive), in time order.
    func points(from: Double = -.infinity, to: Double = .infinity) -> [TrailPoint] {
        let ordered = points[start...] + points[..<start]
        return ordered.filter { $0.time >= from && $0.time <= to }.sorted { $0.time < $1.time }
    }
}
