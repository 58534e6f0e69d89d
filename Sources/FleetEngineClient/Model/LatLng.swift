/// A point on the earth (`google.type.LatLng`), in degrees.
public struct LatLng: Codable, Hashable, Sendable {
    /// Degrees north, -90 to 90.
    public var latitude: Double
    /// Degrees east, -180 to 180.
    public var longitude: Double

    /// Creates a point.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
