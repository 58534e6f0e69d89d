import Foundation

/// Where a vehicle is and how it is moving (`VehicleLocation`), as a driver app reports it.
/// Fleet Engine stamps ``serverTime`` when it stores the location.
public struct VehicleLocation: Codable, Hashable, Sendable {
    /// The position.
    public var location: LatLng?
    /// The position's accuracy radius in meters.
    public var latlngAccuracy: Double?
    /// The direction of travel in degrees clockwise from north, 0 to 359.
    public var heading: Int?
    /// The speed in meters per second.
    public var speed: Double?
    /// When the device took the reading.
    public var updateTime: Date?
    /// When Fleet Engine stored the reading (set by the server; not sent).
    public var serverTime: Date?

    /// Creates a location reading.
    public init(
        location: LatLng?, latlngAccuracy: Double? = nil, heading: Int? = nil, speed: Double? = nil,
        updateTime: Date? = nil
    ) {
        self.location = location
        self.latlngAccuracy = latlngAccuracy
        self.heading = heading
        self.speed = speed
        self.updateTime = updateTime
    }
}
