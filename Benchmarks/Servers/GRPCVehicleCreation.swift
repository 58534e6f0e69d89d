import FleetEngineProtos
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import GRPCProtobuf
import LocalFleetEngine

/// Vehicles created through the local Fleet Engine's gRPC door with grpc-swift's generated
/// client, as a dispatch backend's load test creates its fleet: `concurrency` calls in flight
/// over one HTTP/2 connection, each acknowledged only once the vehicle is durable.
enum GRPCVehicleCreation {
    /// Creates a vehicle for each of `ids` at `latitude`, `longitude` on 127.0.0.1:`port` with
    /// `token`; returns the vehicles created per second and how many calls failed.
    @available(macOS 15.0, *)
    static func run(
        port: Int, project: String, token: String, ids: [String], concurrency: Int, at location: LatLng
    ) async throws -> (perSecond: Double, failed: Int) {
        let transport = try HTTP2ClientTransport.Posix(target: .ipv4(address: "127.0.0.1", port: port), transportSecurity: .plaintext)
        return try await withGRPCClient(transport: transport) { client in
            let vehicles = Maps_Fleetengine_V1_VehicleService.Client(wrapping: client)
            let metadata: Metadata = ["authorization": "Bearer \(token)"]
            let started = ContinuousClock.now
            let failed = await withTaskGroup(of: Int.self) { group in
                for worker in 0..<concurrency {
                    group.addTask {
                        var failed = 0
                        for index in stride(from: worker, to: ids.count, by: concurrency) {
                            let request = Maps_Fleetengine_V1_CreateVehicleRequest.with { request in
                                request.parent = "providers/\(project)"
                                request.vehicleID = ids[index]
                                request.vehicle = .with { vehicle in
                                    vehicle.vehicleState = .online
                                    vehicle.supportedTripTypes = [.exclusive]
                                    vehicle.maximumCapacity = 4
                                    vehicle.vehicleType = .with { $0.category = .auto }
                                    vehicle.lastLocation = .with { $0.location = location }
                                }
                            }
                            do {
                                _ = try await vehicles.createVehicle(request, metadata: metadata)
                            } catch {
                                failed += 1
                            }
                        }
                        return failed
                    }
                }
                return await group.reduce(0, +)
            }
            let elapsed = ContinuousClock.now - started
            return (Double(ids.count - failed) / elapsed.seconds, failed)
        }
    }
}
