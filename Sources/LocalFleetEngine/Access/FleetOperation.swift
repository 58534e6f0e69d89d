/// What a request asks to do, and to which resource: the input of ``AccessPolicy``.
package enum FleetOperation: Sendable, Hashable, CustomStringConvertible {
    /// CreateVehicle: `POST /v1/providers/{p}/vehicles?vehicleId=`.
    case createVehicle(vehicleID: String)
    /// GetVehicle: `GET /v1/providers/{p}/vehicles/{v}`.
    case getVehicle(vehicleID: String)
    /// UpdateVehicle: `PUT /v1/providers/{p}/vehicles/{v}`, of the fields the update mask names.
    case updateVehicle(vehicleID: String, fields: Set<VehicleField> = [])
    /// UpdateVehicleAttributes: `POST /v1/providers/{p}/vehicles/{v}:updateAttributes`.
    case updateVehicleAttributes(vehicleID: String)
    /// DeleteVehicle: `DELETE /v1/providers/{p}/vehicles/{v}`.
    case deleteVehicle(vehicleID: String)
    /// ListVehicles: `GET /v1/providers/{p}/vehicles`.
    case listVehicles
    /// SearchVehicles: `POST /v1/providers/{p}/vehicles:search`.
    case searchVehicles
    /// CreateTrip: `POST /v1/providers/{p}/trips?tripId=`.
    case createTrip(tripID: String)
    /// GetTrip: `GET /v1/providers/{p}/trips/{t}`.
    case getTrip(tripID: String)
    /// UpdateTrip: `PUT /v1/providers/{p}/trips/{t}`, of the fields the update mask names.
    case updateTrip(tripID: String, fields: Set<TripField> = [])
    /// DeleteTrip: `DELETE /v1/providers/{p}/trips/{t}`.
    case deleteTrip(tripID: String)
    /// SearchTrips: `POST /v1/providers/{p}/trips:search`, for the trips of `vehicleID` or of
    /// every vehicle.
    case searchTrips(vehicleID: String?)
    /// ReportBillableTrip: `POST /v1/providers/{p}/billableTrips/{t}:report`.
    case reportBillableTrip(tripID: String)
    /// A method of the delivery API.
    case delivery(DeliveryOperation)

    /// The operation in words, e.g. `update vehicle 'v1'`.
    package var description: String {
        switch self {
        case .createVehicle(let id): "create vehicle '\(id)'"
        case .getVehicle(let id): "get vehicle '\(id)'"
        case .updateVehicle(let id, _): "update vehicle '\(id)'"
        case .updateVehicleAttributes(let id): "update the attributes of vehicle '\(id)'"
        case .deleteVehicle(let id): "delete vehicle '\(id)'"
        case .listVehicles: "list vehicles"
        case .searchVehicles: "search vehicles"
        case .createTrip(let id): "create trip '\(id)'"
        case .getTrip(let id): "get trip '\(id)'"
        case .updateTrip(let id, _): "update trip '\(id)'"
        case .deleteTrip(let id): "delete trip '\(id)'"
        case .searchTrips(let vehicleID): vehicleID.map { "search the trips of vehicle '\($0)'" } ?? "search trips"
        case .reportBillableTrip(let id): "report billable trip '\(id)'"
        case .delivery(let operation): operation.description
        }
    }

    /// Whether the operation changes something.
    package var isWrite: Bool {
        switch self {
        case .createVehicle, .updateVehicle, .updateVehicleAttributes, .deleteVehicle, .createTrip, .updateTrip,
            .deleteTrip, .reportBillableTrip:
            true
        case .getVehicle, .listVehicles, .searchVehicles, .getTrip, .searchTrips:
            false
        case .delivery(let operation):
            operation.isWrite
        }
    }
}
