import FleetEngineProtos

// The engine's model is Fleet Engine's own generated messages (Protos/, FleetEngineProtos):
// both doors hand them to the core as they arrive, and the core stores and answers them. These
// names are only shorter spellings. proto3 cannot tell an unset scalar from its zero value, so
// the rules take a zero, an empty string or an empty list as "not set", as Google's API does.

/// A vehicle of the fleet (`maps.fleetengine.v1.Vehicle`).
package typealias Vehicle = Maps_Fleetengine_V1_Vehicle
/// Where a vehicle is and how it moves (`VehicleLocation`); the server sets `serverTime`.
package typealias VehicleLocation = Maps_Fleetengine_V1_VehicleLocation
/// A key and value the fleet attaches to a vehicle (`VehicleAttribute`).
package typealias VehicleAttribute = Maps_Fleetengine_V1_VehicleAttribute
/// Whether a vehicle takes trips (`VehicleState`).
package typealias VehicleState = Maps_Fleetengine_V1_VehicleState
/// A trip (`maps.fleetengine.v1.Trip`).
package typealias Trip = Maps_Fleetengine_V1_Trip
/// How far a trip has got (`TripStatus`).
package typealias TripStatus = Maps_Fleetengine_V1_TripStatus
/// Whether a trip may share its vehicle (`TripType`).
package typealias TripType = Maps_Fleetengine_V1_TripType
/// A pickup or dropoff place (`TerminalLocation`).
package typealias TerminalLocation = Maps_Fleetengine_V1_TerminalLocation
/// A point on the earth in degrees (`google.type.LatLng`).
package typealias LatLng = Google_Type_LatLng
/// SearchVehicles' request; the REST body is the same message less `parent` and `header`.
package typealias SearchVehiclesRequest = Maps_Fleetengine_V1_SearchVehiclesRequest
/// SearchVehicles' answer.
package typealias SearchVehiclesResponse = Maps_Fleetengine_V1_SearchVehiclesResponse
/// One vehicle a search found.
package typealias VehicleMatch = Maps_Fleetengine_V1_VehicleMatch
/// ListVehicles' request; REST gives its fields as query parameters.
package typealias ListVehiclesRequest = Maps_Fleetengine_V1_ListVehiclesRequest
/// One page of ListVehicles' answer.
package typealias ListVehiclesResponse = Maps_Fleetengine_V1_ListVehiclesResponse
/// SearchTrips' request; the REST body is the same message less `parent` and `header`.
package typealias SearchTripsRequest = Maps_Fleetengine_V1_SearchTripsRequest
/// One page of SearchTrips' answer.
package typealias SearchTripsResponse = Maps_Fleetengine_V1_SearchTripsResponse
/// ReportBillableTrip's request: where and how a billable trip was booked.
package typealias BillableTripReport = Maps_Fleetengine_V1_ReportBillableTripRequest

extension Trip {
    /// Whether the trip still occupies its vehicle (not `COMPLETE` or `CANCELED`).
    package var isActive: Bool {
        !tripStatus.isFinal
    }
}

extension TripStatus {
    /// Whether the trip is over; a finished trip's status never changes again.
    package var isFinal: Bool { self == .complete || self == .canceled }
}
