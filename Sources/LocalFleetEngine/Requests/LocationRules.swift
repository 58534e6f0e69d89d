import SwiftProtobuf

/// A position a driver app reports: on-demand's `VehicleLocation` and delivery's
/// `DeliveryVehicleLocation`, whose fields have the same names and rules.
protocol ReportedLocation {
    var hasLocation: Bool { get }
    var location: LatLng { get }
    var hasHeading: Bool { get }
    var heading: Google_Protobuf_Int32Value { get }
    var hasLatlngAccuracy: Bool { get }
    var latlngAccuracy: Google_Protobuf_DoubleValue { get }
    var hasHeadingAccuracy: Bool { get }
    var headingAccuracy: Google_Protobuf_DoubleValue { get }
    var hasSpeed: Bool { get }
    var speed: Google_Protobuf_DoubleValue { get }
    var hasSpeedAccuracy: Bool { get }
    var speedAccuracy: Google_Protobuf_DoubleValue { get }
    var hasAltitude: Bool { get }
    var altitude: Google_Protobuf_DoubleValue { get }
    var hasAltitudeAccuracy: Bool { get }
    var altitudeAccuracy: Google_Protobuf_DoubleValue { get }
    var hasUpdateTime: Bool { get }
    var updateTime: Google_Protobuf_Timestamp { get }
    var hasServerTime: Bool { get }
    var serverTime: Google_Protobuf_Timestamp { get }
}

extension VehicleLocation: ReportedLocation {}
extension DeliveryVehicleLocation: ReportedLocation {}

/// The rules of the places and positions in requests.
extension ReportedLocation {
    /// Refuses a location without a valid position, or with a heading outside 0–359 or a
    /// measure that is not finite (or is negative, altitude aside); `field` names the location
    /// in messages.
    func validate(field: String) throws(InvalidArgument) {
        guard hasLocation else { throw InvalidArgument("\(field).location is required") }
        try location.validate(field: "\(field).location")
        if hasHeading, !(0..<360).contains(heading.value) {
            throw InvalidArgument("\(field).heading is \(heading.value); it must be from 0 to 359 degrees")
        }
        let measures: [(String, Double?)] = [
            ("latlngAccuracy", hasLatlngAccuracy ? latlngAccuracy.value : nil),
            ("headingAccuracy", hasHeadingAccuracy ? headingAccuracy.value : nil),
            ("speed", hasSpeed ? speed.value : nil), ("speedAccuracy", hasSpeedAccuracy ? speedAccuracy.value : nil),
            ("altitude", hasAltitude ? altitude.value : nil),
            ("altitudeAccuracy", hasAltitudeAccuracy ? altitudeAccuracy.value : nil),
        ]
        for case let (name, value?) in measures where !value.isFinite {
            throw InvalidArgument("\(field).\(name) is \(value); it must be a finite number")
        }
        for case let (name, value?) in measures where name != "altitude" && value < 0 {
            throw InvalidArgument("\(field).\(name) is \(value); it must not be negative")
        }
    }
}

extension LatLng {
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
}

extension TerminalLocation {
    /// Refuses a place without a valid point; `field` names it in messages.
    func validate(field: String) throws(InvalidArgument) {
        guard hasPoint else { throw InvalidArgument("\(field).point is required") }
        try point.validate(field: "\(field).point")
    }
}

extension VehicleAttribute {
    /// The attribute's text: its `stringValue`, or the older `value`.
    var textValue: String? {
        if case .stringValue(let text) = vehicleAttributeValue { return text }
        return value.isEmpty ? nil : value
    }

    /// Whether this attribute has `other`'s key and value (compared as text, truth or number).
    func hasSameValue(as other: VehicleAttribute) -> Bool {
        guard key == other.key else { return false }
        if let text = other.textValue { return textValue == text }
        switch other.vehicleAttributeValue {
        case .boolValue(let flag): return vehicleAttributeValue == .boolValue(flag)
        case .numberValue(let number): return vehicleAttributeValue == .numberValue(number)
        case .stringValue, nil: return false
        }
    }
}
