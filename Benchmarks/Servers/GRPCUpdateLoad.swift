import FleetDemo
import FleetEngineProtos
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import GRPCProtobuf

/// Location updates over the local Fleet Engine's gRPC door for `bench fleet-engine`, with
/// grpc-swift's own client (in a process of its own, ``GRPCLoadCommand``): `streams` closed loops multiplexed over
/// `connections` HTTP/2 connections, as a backend's gRPC client sends them. Each loop moves its
/// own vehicles in turn, one update in flight per vehicle, and the vehicle's nth update of run
/// r puts it at latitude 10 + r + n / 10^7 as in the REST runs, so the store's latitude tells
/// which update it holds.
@available(macOS 15.0, *)
struct GRPCUpdateLoad {
    /// What a run saw.
    struct Result: Codable {
        /// Answers with status OK.
        let succeeded: Int
        /// Other answers.
        let failed: Int
        /// How long the run took, in seconds.
        let seconds: Double
        /// Latency of every answer.
        let latency: LatencySummary
        /// By vehicle index, the highest step answered OK through the last step sent.
        let acknowledged: [Int: ClosedRange<Int>]
    }

    /// The engine's gRPC port.
    let port: Int
    /// The provider the vehicles belong to.
    let project: String
    /// Each vehicle's driver token, by vehicle index.
    let tokens: [String]
    /// The vehicle id of an index.
    let vehicleID: @Sendable (Int) -> String
    /// HTTP/2 connections.
    let connections: Int
    /// Closed loops in all, spread over the connections.
    let streams: Int

    /// Runs for `seconds` as run number `run`.
    func run(seconds: Int, run: Int) async throws -> Result {
        let clients = try (0..<connections).map { _ in
            GRPCClient(transport: try HTTP2ClientTransport.Posix(target: .ipv4(address: "127.0.0.1", port: port), transportSecurity: .plaintext))
        }
        return try await withThrowingTaskGroup(of: Void.self) { connectionTasks in
            for client in clients { connectionTasks.addTask { try await client.runConnections() } }
            defer { for client in clients { client.beginGracefulShutdown() } }
            let start = ContinuousClock.now
            let deadline = start + .seconds(seconds)
            let loops = try await withThrowingTaskGroup(of: LoopTally.self) { group in
                for loop in 0..<streams {
                    let service = Maps_Fleetengine_V1_VehicleService.Client(wrapping: clients[loop % connections])
                    group.addTask { try await drive(service, loop: loop, run: run, until: deadline) }
                }
                return try await group.reduce(into: [LoopTally]()) { $0.append($1) }
            }
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return Result(
                succeeded: loops.reduce(0) { $0 + $1.succeeded }, failed: loops.reduce(0) { $0 + $1.failed }, seconds: seconds,
                latency: LatencySummary(loops.flatMap(\.latencies)),
                acknowledged: loops.reduce(into: [:]) { all, loop in all.merge(loop.acknowledged) { $1 } })
        }
    }

    /// What one loop counted.
    private struct LoopTally: Sendable {
        var succeeded = 0
        var failed = 0
        var latencies: [Int64] = []
        var acknowledged: [Int: ClosedRange<Int>] = [:]
    }

    /// One closed loop: the vehicles whose index is `loop` modulo ``streams``, one update each in turn.
    private func drive(
        _ service: Maps_Fleetengine_V1_VehicleService.Client<HTTP2ClientTransport.Posix>, loop: Int, run: Int, until deadline: ContinuousClock.Instant
    ) async throws -> LoopTally {
        let mine = Array(stride(from: loop, to: tokens.count, by: streams))
        var tally = LoopTally()
        var sent: [Int: Int] = [:], acked: [Int: Int] = [:]
        var turn = 0
        while ContinuousClock.now < deadline {
            let index = mine[turn % mine.count]
            turn += 1
            let step = sent[index, default: 0] + 1
            sent[index] = step
            let request = update(index, latitude: Double(10 + run) + Double(step) / 1e7)
            let metadata: Metadata = ["authorization": "Bearer \(tokens[index])"]
            let began = ContinuousClock.now
            do {
                _ = try await service.updateVehicle(request, metadata: metadata)
                tally.succeeded += 1
                acked[index] = step
            } catch {
                tally.failed += 1
            }
            let took = ContinuousClock.now - began
            tally.latencies.append(took.components.seconds * 1_000_000_000 + took.components.attoseconds / 1_000_000_000)
        }
        for (index, last) in sent { tally.acknowledged[index] = acked[index, default: 0]...last }
        return tally
    }

    /// The UpdateVehicle request that puts vehicle `index` at `latitude`, the same update as
    /// the REST runs' body.
    private func update(_ index: Int, latitude: Double) -> Maps_Fleetengine_V1_UpdateVehicleRequest {
        .with { request in
            request.name = "providers/\(project)/vehicles/\(vehicleID(index))"
            request.updateMask = .with { $0.paths = ["last_location"] }
            request.vehicle.lastLocation = .with { location in
                location.location = .with { $0.latitude = latitude; $0.longitude = 13.405 }
                location.heading = .init(90)
                location.speed = .init(8.5)
                location.updateTime = .init(seconds: 1_795_278_600)
            }
        }
    }
}
