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

        /// An UpdateVehicle call: by default, of `paths-1`'s location.
        init(_ name: String, vehicle vehicleID: String = "paths-1", paths: [String] = ["last_location"], token: String?)
        {
            (self.name, self.vehicleID, self.paths, self.token) = (name, vehicleID, paths, token)
        }
    }

    static let calls: [Call] = [
        Call("the driver moves its vehicle", token: Tokens.driver("paths-1")),
        Call("another vehicle's driver", token: Tokens.driver("paths-2")),
        Call("no token", token: nil),
        Call("a malformed token", token: "x.y.z"),
        Call(
            "a field the driver may not set", paths: ["last_location", "maximum_capacity"],
            token: Tokens.driver("paths-1")),
        Call("an empty mask", paths: [], token: Tokens.driver("paths-1")),
        Call("a vehicle that does not exist", vehicle: "paths-9", token: Tokens.driver("paths-9")),
        Call("the driver moves it again", token: Tokens.driver("paths-1")),
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
