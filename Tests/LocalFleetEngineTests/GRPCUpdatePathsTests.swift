import FleetEngineProtos
import GRPCCore
import LocalFleetEngine
import LocalFleetEngineGRPCSwift
import SwiftProtobuf
import TestSupport
import Testing

/// The gRPC door answers UpdateVehicle on the event loop that read it (`LocationUpdateOnLoop`);
/// a call it does not take there runs the same method through grpc-swift's server. The same
/// calls sent to an engine on the door's transport and to one on grpc-swift's own (where every
/// call takes the second way) answer alike: the same status and message, the same vehicle.
@Suite("gRPC UpdateVehicle: on the loop and through grpc-swift's server, alike")
struct GRPCUpdatePathsTests {
    /// One call: the update, and the token it carries (`nil`: none).
    struct Call: Sendable {
        let name: String
        let vehicleID: String
        let paths: [String]
        let token: String?
    }

    static let calls: [Call] = [
        Call(
            name: "the driver moves its vehicle", vehicleID: "paths-1", paths: ["last_location"],
            token: Tokens.driver("paths-1")),
        Call(
            name: "another vehicle's driver", vehicleID: "paths-1", paths: ["last_location"],
            token: Tokens.driver("paths-2")),
        Call(name: "no token", vehicleID: "paths-1", paths: ["last_location"], token: nil),
        Call(name: "a malformed token", vehicleID: "paths-1", paths: ["last_location"], token: "x.y.z"),
        Call(
            name: "a field the driver may not set", vehicleID: "paths-1", paths: ["last_location", "maximum_capacity"],
            token: Tokens.driver("paths-1")),
        Call(name: "an empty mask", vehicleID: "paths-1", paths: [], token: Tokens.driver("paths-1")),
        Call(
            name: "a vehicle that does not exist", vehicleID: "paths-9", paths: ["last_location"],
            token: Tokens.driver("paths-9")),
        Call(
            name: "the driver moves it again", vehicleID: "paths-1", paths: ["last_location"],
            token: Tokens.driver("paths-1")),
    ]

    @Test("the same calls get the same answers both ways")
    func sameAnswers() async throws {
        let own = try await TestEngine.with { engine in try await Self.answers(from: engine) }
        let grpcSwift = try await TestEngine.with(configure: { $0.grpcTransport = GRPCSwiftDoorTransport() }) {
            engine in
            try await Self.answers(from: engine)
        }
        #expect(own.count == Self.calls.count)
        for (call, (mine, theirs)) in zip(Self.calls, zip(own, grpcSwift)) {
            #expect(mine == theirs, "\(call.name): \(mine) against \(theirs)")
        }
        #expect(own.first?.hasPrefix("OK") == true, "\(own)")
        #expect(own.dropFirst().prefix(6).allSatisfy { !$0.hasPrefix("OK") }, "\(own)")
    }

    /// Each call's answer, as text: its status and message, or the vehicle answered with its
    /// server time taken out.
    static func answers(from engine: TestClient) async throws -> [String] {
        try await GRPCTestClient.with(engine) { grpc in
            _ = try await grpc.vehicles.createVehicle(
                .with {
                    $0.parent = GRPCDoorTests.parent; $0.vehicleID = "paths-1";
                    $0.vehicle = try! GRPCDoorTests.vehicle()
                },
                metadata: GRPCTestClient.bearer(Tokens.server))
            var answers: [String] = []
            for (index, call) in calls.enumerated() {
                let request = Maps_Fleetengine_V1_UpdateVehicleRequest.with {
                    $0.name = GRPCDoorTests.vehicleName(call.vehicleID)
                    $0.vehicle = .with {
                        $0.vehicleState = .offline
                        $0.lastLocation = .with {
                            $0.location = .with {
                                $0.latitude = 10 + Double(index); $0.longitude = 20
                            }
                        }
                    }
                    $0.updateMask = .with { $0.paths = call.paths }
                }
                let metadata: Metadata = call.token.map(GRPCTestClient.bearer) ?? [:]
                do {
                    var vehicle = try await grpc.vehicles.updateVehicle(request, metadata: metadata)
                    vehicle.lastLocation.clearServerTime()
                    answers.append("OK " + (try vehicle.jsonString()))
                } catch let error as RPCError {
                    answers.append("\(error.code) \(error.message)")
                }
            }
            return answers
        }
    }
}
