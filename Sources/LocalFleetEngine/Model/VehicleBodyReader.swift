import FleetTokens

/// A hand-written reader for the vehicle bodies driver apps send many times a minute
/// (`lastLocation`, and `vehicleState` or `name` beside it), straight from the bytes: the
/// general decoder (`JSONDecoder` through ``StrictContainer``) cost as much as a sixth of the
/// CPU of a whole location update.
///
/// It accepts only what it reads exactly as the general decoder would. Anything else (another
/// field, `null`, a string where a number belongs, `"NaN"`, a number a `Double` cannot hold, a
/// whole number written with a fraction or exponent, a duplicate key, a bad timestamp or enum
/// name, snake_case names, bad syntax) makes it give up, and the general decoder reads the
/// body instead and explains what is wrong.
enum VehicleBodyReader {
    /// The vehicle `body` holds, or `nil` when the body is not in a shape this reader takes.
    static func vehicle(from body: UnsafeRawBufferPointer) -> Vehicle? {
        var vehicle = Vehicle()
        do throws(JSONReadError) {
            try JSONCursor.read(body) { (cursor) throws(JSONReadError) in
                try cursor.readDocumentObject { (cursor, key) throws(JSONReadError) in
                    switch key {
                    case "lastLocation": vehicle.lastLocation = try readLocation(&cursor)
                    case "vehicleState": vehicle.vehicleState = try readEnum(&cursor)
                    case "name": vehicle.name = try cursor.readString()
                    default: throw giveUp
                    }
                }
            }
        } catch {
            return nil
        }
        return vehicle
    }

    private static func readLocation(_ cursor: inout JSONCursor) throws(JSONReadError) -> VehicleLocation {
        var location = VehicleLocation()
        try cursor.readObject { (cursor, key) throws(JSONReadError) in
            switch key {
            case "location": location.location = try readLatLng(&cursor)
            case "latlngAccuracy": location.latlngAccuracy = try cursor.readNumber()
            case "heading": location.heading = try cursor.readInteger()
            case "headingAccuracy": location.headingAccuracy = try cursor.readNumber()
            case "speed": location.speed = try cursor.readNumber()
            case "speedAccuracy": location.speedAccuracy = try cursor.readNumber()
            case "altitude": location.altitude = try cursor.readNumber()
            case "altitudeAccuracy": location.altitudeAccuracy = try cursor.readNumber()
            case "updateTime": location.updateTime = try readTimestamp(&cursor)
            case "serverTime": location.serverTime = try readTimestamp(&cursor)
            case "locationSensor": location.locationSensor = try readEnum(&cursor)
            case "isRoadSnapped": location.isRoadSnapped = try cursor.readBool()
            default: throw giveUp
            }
        }
        return location
    }

    /// A point; a missing coordinate is 0, as in proto3 and ``LatLng/init(from:)``.
    private static func readLatLng(_ cursor: inout JSONCursor) throws(JSONReadError) -> LatLng {
        var point = LatLng(latitude: 0, longitude: 0)
        try cursor.readObject { (cursor, key) throws(JSONReadError) in
            switch key {
            case "latitude": point.latitude = try cursor.readNumber()
            case "longitude": point.longitude = try cursor.readNumber()
            default: throw giveUp
            }
        }
        return point
    }

    private static func readTimestamp(_ cursor: inout JSONCursor) throws(JSONReadError) -> ProtoTimestamp {
        guard let timestamp = ProtoTimestamp(rfc3339: try cursor.readString()) else { throw giveUp }
        return timestamp
    }

    private static func readEnum<Value: ProtoEnum>(_ cursor: inout JSONCursor) throws(JSONReadError) -> Value {
        guard let value = Value(rawValue: try cursor.readString()) else { throw giveUp }
        return value
    }

    /// Thrown to hand the body to the general decoder.
    private static let giveUp = JSONReadError.syntax("not a shape the quick reader takes")
}
