import Foundation

/// A point on the earth (`google.type.LatLng`), in degrees.
package struct LatLng: Sendable, Hashable {
    /// Degrees north, -90 to 90.
    package var latitude: Double
    /// Degrees east, -180 to 180.
    package var longitude: Double

    /// Creates a point.
    package init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Refuses a point whose latitude is not within ±90 or whose longitude is not within ±180
    /// (NaN and infinities included); `field` names the point in the message.
    package func validate(field: String) throws(InvalidArgument) {
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            throw InvalidArgument("\(field).latitude is \(latitude); it must be a number from -90 to 90")
        }
        guard longitude.isFinite, (-180...180).contains(longitude) else {
            throw InvalidArgument("\(field).longitude is \(longitude); it must be a number from -180 to 180")
        }
    }

    /// The great-circle distance to `other` in meters (haversine, mean earth radius).
    package func distance(to other: LatLng) -> Double {
        let radians = Double.pi / 180
        let deltaLatitude = (other.latitude - latitude) * radians
        let deltaLongitude = (other.longitude - longitude) * radians
        let a = sin(deltaLatitude / 2) * sin(deltaLatitude / 2)
            + cos(latitude * radians) * cos(other.latitude * radians) * sin(deltaLongitude / 2) * sin(deltaLongitude / 2)
        return 2 * Self.earthRadiusMeters * asin(min(1, sqrt(a)))
    }

    /// This point rounded to a grid of `step` degrees, for callers who may only know roughly
    /// where something is.
    package func rounded(toDegrees step: Double) -> LatLng {
        LatLng(latitude: (latitude / step).rounded() * step, longitude: (longitude / step).rounded() * step)
    }

    static let earthRadiusMeters = 6_371_008.8
}
