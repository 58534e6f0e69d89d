import Foundation

/// What a replay marks on a vehicle's path, with the thresholds of Google's fleet-debugger:
/// - a **gap**: more than 60 s between two updates, or more than 10 times the median time
///   between updates of the range;
/// - a **dwell**: 2 minutes or more spent within 20 m;
/// - a **speed jump**: two updates farther apart than 240 km/h allows.
struct TrailAnalysis: Sendable, Encodable, Equatable {
    /// Time between two updates beyond which they are a gap whatever the median.
    static let gapSeconds = 60.0
    /// A gap is also this many times the median time between updates.
    static let gapMedianFactor = 10.0
    /// A dwell lasts at least this long…
    static let dwellSeconds = 120.0
    /// …within this distance of where it started.
    static let dwellMeters = 20.0
    /// Faster than this between two updates is a jump.
    static let jumpKilometersPerHour = 240.0

    /// Two updates too far apart in time.
    struct Gap: Sendable, Encodable, Equatable {
        let from: Double, to: Double, seconds: Double
    }

    /// A stay in one place.
    struct Dwell: Sendable, Encodable, Equatable {
        let from: Double, to: Double, latitude: Double, longitude: Double, seconds: Double
    }

    /// Two updates too far apart in space for the time between them.
    struct Jump: Sendable, Encodable, Equatable {
        let from: Double, to: Double, meters: Double
        /// `nil` when both updates carry the same time.
        let kilometersPerHour: Double?
    }

    /// The path: `[latitude, longitude, time]` per update, in time order.
    let points: [[Double]]
    let gaps: [Gap]
    let dwells: [Dwell]
    let jumps: [Jump]

    /// The marks of `trail`, points in time order.
    init(_ trail: [TrailPoint]) {
        points = trail.map { [$0.latitude, $0.longitude, $0.time] }
        let steps = zip(trail, trail.dropFirst()).map { (before: $0, after: $1) }
        let intervals = steps.map { $0.after.time - $0.before.time }.sorted()
        let median = intervals.isEmpty ? 0 : intervals[intervals.count / 2]
        let gapLimit = median > 0 ? min(Self.gapSeconds, Self.gapMedianFactor * median) : Self.gapSeconds
        gaps = steps.compactMap { step in
            let seconds = step.after.time - step.before.time
            return seconds > gapLimit ? Gap(from: step.before.time, to: step.after.time, seconds: seconds) : nil
        }
        jumps = steps.compactMap { step in
            let meters = step.before.latLng.distance(to: step.after.latLng)
            let seconds = step.after.time - step.before.time
            let speed = seconds > 0 ? meters / seconds * 3.6 : (meters > Self.dwellMeters ? .infinity : 0)
            guard speed > Self.jumpKilometersPerHour else { return nil }
            return Jump(
                from: step.before.time, to: step.after.time, meters: meters,
                kilometersPerHour: speed.isFinite ? speed : nil)
        }
        dwells = Self.dwells(in: trail)
    }

    /// The longest stays within ``dwellMeters`` of where each began that lasted ``dwellSeconds``.
    private static func dwells(in trail: [TrailPoint]) -> [Dwell] {
        var dwells: [Dwell] = []
        var first = 0
        while first < trail.count {
            let anchor = trail[first].latLng
            var last = first
            while last + 1 < trail.count, trail[last + 1].latLng.distance(to: anchor) <= dwellMeters { last += 1 }
            let seconds = trail[last].time - trail[first].time
            if seconds >= dwellSeconds {
                dwells.append(
                    Dwell(
                        from: trail[first].time, to: trail[last].time, latitude: anchor.latitude,
                        longitude: anchor.longitude, seconds: seconds))
                first = last + 1
            } else {
                first += 1
            }
        }
        return dwells
    }
}
