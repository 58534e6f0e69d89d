import FleetEngineProtos
import GRPCCore
import ServerHTTP
import SwiftProtobuf

/// `maps.fleetengine.v1.TripService` over gRPC: each method reads the resource name of its
/// request and hands the request message to the core's operation, the same one the REST route
/// calls, answering with the message it returns.
@available(macOS 15.0, iOS 18.0, *)
struct TripServiceDoor: Maps_Fleetengine_V1_TripService.ServiceProtocol {
    /// Authentication and answering.
    let requests: GRPCRequests

    func createTrip(
        request: ServerRequest<Maps_Fleetengine_V1_CreateTripRequest>, context: ServerContext
    ) async throws -> ServerResponse<Maps_Fleetengine_V1_Trip> {
        try await requests.answer(request, method: "CreateTrip", target: { message throws(APIError) in
            (try ResourceNames.provider(ofParent: message.parent), message.tripID)
        }) { call, id, message in
            try await requests.core.createTrip(call, tripID: id) { message.trip }
        }
    }

    func getTrip(
        request: ServerRequest<Maps_Fleetengine_V1_GetTripRequest>, context: ServerContext
    ) async throws -> ServerResponse<Maps_Fleetengine_V1_Trip> {
        try await requests.answer(request, method: "GetTrip", target: { message throws(APIError) in
            try ResourceNames.parse(message.name, collection: "trips")
        }) { call, id, _ in
            try requests.core.getTrip(call, tripID: id)
        }
    }

    func updateTrip(
        request: ServerRequest<Maps_Fleetengine_V1_UpdateTripRequest>, context: ServerContext
    ) async throws -> ServerResponse<Maps_Fleetengine_V1_Trip> {
        try await requests.answer(request, method: "UpdateTrip", target: { message throws(APIError) in
            try ResourceNames.parse(message.name, collection: "trips")
        }) { call, id, message in
            try await requests.core.updateTrip(call, tripID: id, updateMask: message.updateMask.joinedPaths) {
                message.trip
            }
        }
    }

    func deleteTrip(
        request: ServerRequest<Maps_Fleetengine_V1_DeleteTripRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Protobuf_Empty> {
        try await requests.answer(request, method: "DeleteTrip", target: { message throws(APIError) in
            try ResourceNames.parse(message.name, collection: "trips")
        }) { call, id, _ in
            try await requests.core.deleteTrip(call, tripID: id)
            return Google_Protobuf_Empty()
        }
    }

    func reportBillableTrip(
        request: ServerRequest<Maps_Fleetengine_V1_ReportBillableTripRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Protobuf_Empty> {
        try await requests.answer(request, method: "ReportBillableTrip", target: { message throws(APIError) in
            try ResourceNames.parse(message.name, collection: "billableTrips")
        }) { call, id, message in
            try requests.core.reportBillableTrip(call, billableTripID: id) { message }
            return Google_Protobuf_Empty()
        }
    }

    func searchTrips(
        request: ServerRequest<Maps_Fleetengine_V1_SearchTripsRequest>, context: ServerContext
    ) async throws -> ServerResponse<Maps_Fleetengine_V1_SearchTripsResponse> {
        try await requests.answer(request, method: "SearchTrips", target: { message throws(APIError) in
            (try ResourceNames.provider(ofParent: message.parent), "")
        }) { call, _, message in
            try requests.core.searchTrips(call) { message }
        }
    }
}
