import Foundation

/// Distances on the earth, as the local Fleet Engine measures them: by straight line (it has no
/// road network).
extension LatLng {
    /// The point at `latitude`, `longitude`.
    package init(latitude: Double, longitude: Double) {
        self.init()
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The great-circle distance to `other` in meters (haversine, mean earth radius).
    package func distance(to other: LatLng) -> Double {
        let radians = Double.pi / 180
        let deltaLatitude = (other.latitude - latitude) * radians
        let deltaLongitude = (other.longitude - longitude) * radians
        let a =
            sin(deltaLatitude / 2) * sin(deltaLatitude / 2)
            + cos(latitude * radians) * cos(other.latitude * radians) * sin(deltaLongitude / 2)
            * sin(deltaLongitude / 2)
        return 2 * Self.earthRadiusMeters * asin(min(1, sqrt(a)))
    }

    /// This point rounded to a grid of `step` degrees, for callers who may only know roughly
    /// where something is.
    package func rounded(toDegrees step: Double) -> LatLng {
        LatLng(latitude: (latitude / step).rounded() * step, longitude: (longitude / step).rounded() * step)
    }

    static let earthRadiusMeters = 6_371_008.8
}
