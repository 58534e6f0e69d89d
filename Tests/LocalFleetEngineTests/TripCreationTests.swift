import FleetEngineProtos
import TestSupport
import Testing

/// CreateTrip ignores what Fleet Engine ignores: every trip starts `NEW`, whichever status the
/// request gave, on both doors.
@Suite("CreateTrip starts every trip NEW")
struct TripCreationTests {
    @Test func restIgnoresTheGivenStatus() async throws {
        let engine = try await TestEngine.shared
        let body =
            #"{"tripType":"EXCLUSIVE","tripStatus":"COMPLETE","pickupPoint":{"point":{"latitude":52.52,"longitude":13.405}}}"#
        let created = try await engine.send(
            .POST, "\(Fixtures.provider)/trips?tripId=new-rest", token: Tokens.server, body: body)
        #expect(created.status == 200, "\(created)")
        #expect(created.value("tripStatus") as? String == "NEW")
    }

    @Test func grpcIgnoresTheGivenStatus() async throws {
        try await GRPCTestClient.with(try await TestEngine.shared) { grpc in
            var trip = try Maps_Fleetengine_V1_Trip(jsonString: Fixtures.tripBody(vehicleID: nil))
            trip.tripStatus = .canceled
            let created = try await grpc.trips.createTrip(
                .with {
                    $0.parent = "providers/\(TestKeys.project)"; $0.tripID = "new-grpc"; $0.trip = trip
                },
                metadata: GRPCTestClient.bearer(Tokens.server))
            #expect(created.tripStatus == .new)
        }
    }
}
