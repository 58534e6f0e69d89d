import FleetEngineProtos
import GRPCCore
import SwiftProtobuf

/// `maps.fleetengine.v1.TripService` over gRPC: each method hands its request message to the
/// core's operation, the same one the REST route calls.
@available(macOS 15.0, iOS 18.0, *)
enum TripServiceMethods {
    private typealias Method = Maps_Fleetengine_V1_TripService.Method

    /// The service's methods.
    static let all: [any GRPCMethodRow] = [
        GRPCMethod(Method.CreateTrip.self, .creation(parent: \.parent, id: \.tripID), body: .field(\.trip)) {
            core, call, id, message in
            try await core.createTrip(call, tripID: id) { message.trip }
        },
        GRPCMethod(Method.GetTrip.self, .resource(\.name, in: "trips")) { core, call, id, _ in
            try core.getTrip(call, tripID: id)
        },
        GRPCMethod(Method.UpdateTrip.self, .resource(\.name, in: "trips"), body: .field(\.trip)) {
            core, call, id, message in
            try await core.updateTrip(call, tripID: id, updateMask: message.updateMask.joinedPaths) { message.trip }
        },
        GRPCMethod(Method.DeleteTrip.self, .resource(\.name, in: "trips")) { core, call, id, _ in
            try await core.deleteTrip(call, tripID: id)
            return Google_Protobuf_Empty()
        },
        GRPCMethod(Method.ReportBillableTrip.self, .resource(\.name, in: "billableTrips"), body: .whole) {
            core, call, id, message in
            try core.reportBillableTrip(call, billableTripID: id) { message }
            return Google_Protobuf_Empty()
        },
        GRPCMethod(Method.SearchTrips.self, .collection(\.parent), body: .whole) { core, call, _, message in
            try core.searchTrips(call) { message }
        },
    ]
}

extension Maps_Fleetengine_V1_TripService.Method.CreateTrip: UnaryRPC {}
extension Maps_Fleetengine_V1_TripService.Method.GetTrip: UnaryRPC {}
extension Maps_Fleetengine_V1_TripService.Method.UpdateTrip: UnaryRPC {}
extension Maps_Fleetengine_V1_TripService.Method.DeleteTrip: UnaryRPC {}
extension Maps_Fleetengine_V1_TripService.Method.ReportBillableTrip: UnaryRPC {}
extension Maps_Fleetengine_V1_TripService.Method.SearchTrips: UnaryRPC {}
