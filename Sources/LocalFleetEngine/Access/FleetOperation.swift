/// What a request asks to do, and to which resource: the input of ``AccessPolicy``.
public enum FleetOperation: Sendable, Hashable, CustomStringConvertible {
    /// `POST /v1/providers/{p}/vehicles?vehicleId=`.
    case createVehicle(vehicleID: String)
    /// `GET /v1/providers/{p}/vehicles/{v}`.
    case getVehicle(vehicleID: String)
    /// `PUT /v1/providers/{p}/vehicles/{v}`.
    case updateVehicle(vehicleID: String)
    /// `POST /v1/providers/{p}/vehicles:search`.
    case searchVehicles
    /// `POST /v1/providers/{p}/trips?tripId=`.
    case createTrip(tripID: String)
    /// `GET /v1/providers/{p}/trips/{t}`.
    case getTrip(tripID: String)
    /// `PUT /v1/providers/{p}/trips/{t}`.
    case updateTrip(tripID: String)

    /// The operation in words, e.g. `update vehicle 'v1'`.
    public var description: String {
        switch self {
        case .createVehicle(let id): "create vehicle '\(id)'"
        case .getVehicle(let id): "get vehicle '\(id)'"
        case .updateVehicle(let id): "update vehicle '\(id)'"
        case .searchVehicles: "search vehicles"
        case .createTrip(let id): "create trip '\(id)'"
        case .getTrip(let id): "get trip '\(id)'"
        case .updateTrip(let id): "update trip '\(id)'"
        }
    }

    /// Whether the operation changes something.
    public var isWrite: Bool {
        switch self {
        case .createVehicle, .updateVehicle, .createTrip, .updateTrip: true
        case .getVehicle, .searchVehicles, .getTrip: false
        }
    }
}
