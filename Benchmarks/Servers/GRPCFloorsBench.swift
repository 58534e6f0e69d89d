import ArgumentParser
import CommandSupport
import FleetEngineProtos
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import LocalFleetEngine
import NIOPosix
import SwiftProtobuf

/// `fleetauth-bench grpc-floors`: how many UpdateVehicle calls a gRPC server with nothing
/// behind it answers per second here, on grpc-swift (``GRPCFloorService``, what the engine's
/// gRPC door is built on), on swift-nio-http2 alone (``NIOHTTP2Floor``) and on gRPC's C++ core
/// (`Benchmarks/grpc-cpp`), all under `h2load`, rounds interleaved. It tells whether the
/// gRPC library bounds the engine's gRPC door: compare with the REST door's durable updates of
/// `bench fleet-engine` in the same session.
struct GRPCFloorsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grpc-floors",
        abstract:
            "UpdateVehicle calls/s with nothing behind them: grpc-swift, swift-nio-http2 and gRPC's C++ core, under h2load."
    )

    @Option(help: "The C++ floor server, built by Benchmarks/grpc-cpp/build.sh.")
    var cppFloor = ".build-grpc-cpp/floor"

    @Option(help: "HTTP/2 connections.")
    var connections = 4

    @Option(help: "Calls in flight on each connection.")
    var streams = 25

    @Option(help: "Seconds per measured run (after a 1 s warm-up).")
    var seconds = 5

    @Option(help: "Rounds (each server once per round, the order alternating); medians are reported.")
    var rounds = 3

    @Flag(help: "Print JSON.")
    var json = false

    /// One server's runs.
    struct Server: Encodable {
        let name: String
        let callsPerSecond: [Double]
        /// The server process's CPU time per call (for grpc-swift, this process's).
        let cpuMicrosecondsPerCall: [Double]
        var medianCallsPerSecond: Double { Throughput.median(callsPerSecond) }
        var medianCPUMicrosecondsPerCall: Double { Throughput.median(cpuMicrosecondsPerCall) }
    }

    struct Report: Encodable {
        let connections: Int
        let streamsPerConnection: Int
        let secondsPerRun: Int
        let grpcSwift: Server
        let nioHTTP2: Server
        let cppCore: Server
        /// grpc-swift on the engine door's own transport (``UnaryHTTP2ServerTransport``).
        let grpcSwiftUnaryTransport: Server
        /// The median, over rounds, of grpc-swift's calls/s divided by the C++ core's in the same round.
        let grpcSwiftToCppRatio: Double
        /// The same for swift-nio-http2 alone.
        let nioHTTP2ToCppRatio: Double
    }

    func run() async throws {
        guard #available(macOS 15.0, *) else { throw CommandFailure("grpc-swift 2 needs macOS 15") }
        guard FileManager.default.isExecutableFile(atPath: cppFloor) else {
            throw CommandFailure("no C++ floor at \(cppFloor): build it with Benchmarks/grpc-cpp/build.sh")
        }
        let folder = try BenchFolder.create()
        defer { BenchFolder.remove(folder) }
        let bodyFile = folder + "/update-vehicle.grpc"
        let request = Maps_Fleetengine_V1_UpdateVehicleRequest.with {
            $0.name = "providers/bench-floors/vehicles/bench-0"
            $0.vehicle.lastLocation.location = .with {
                $0.latitude = 52.52; $0.longitude = 13.405
            }
            $0.updateMask.paths = ["last_location"]
        }
        guard FileManager.default.createFile(atPath: bodyFile, contents: H2Load.frame(try request.serializedBytes()))
        else {
            throw CommandFailure("cannot write \(bodyFile)")
        }
        let method = "/maps.fleetengine.v1.VehicleService/UpdateVehicle"
        let cpp = try await ServerProcess.start(name: "gRPC C++ floor", arguments: [cppFloor, "0"]) { line in
            line.hasPrefix("port ") ? Int(line.dropFirst(5)) : nil
        }
        defer { cpp.stop() }
        let transport = HTTP2ServerTransport.Posix(
            address: .ipv4(host: "127.0.0.1", port: 0), transportSecurity: .plaintext)
        let server = GRPCServer(transport: transport, services: [GRPCFloorService()])
        let unaryTransport = UnaryHTTP2ServerTransport(host: "127.0.0.1", port: 0, maximumRequestSize: 4 * 1024 * 1024)
        let unaryServer = GRPCServer(transport: unaryTransport, services: [GRPCFloorService()])
        let nio = try await NIOHTTP2Floor.start(on: MultiThreadedEventLoopGroup.singleton)
        defer { nio.close(promise: nil) }
        let report = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.serveOnEventLoops() }
            group.addTask { try await unaryServer.serve() }
            defer {
                server.beginGracefulShutdown()
                unaryServer.beginGracefulShutdown()
            }
            let unaryPort = try await unaryTransport.listeningPort
            guard let swiftPort = try await transport.listeningAddress.ipv4?.port, let nioPort = nio.localAddress?.port
            else {
                throw CommandFailure("a Swift floor did not listen")
            }
            // The in-process floors' CPU is this process's; the C++ floor's its own.
            let floors: [(port: Int, cpuSeconds: () throws -> Double)] = [
                (swiftPort, Throughput.processCPUSeconds), (nioPort, Throughput.processCPUSeconds),
                (cpp.port, cpp.cpuSeconds),
                (unaryPort, Throughput.processCPUSeconds),
            ]
            var runs: [[(callsPerSecond: Double, cpuMicroseconds: Double)]] = Array(repeating: [], count: floors.count)
            for round in 1...rounds {
                let order = round % 2 == 1 ? Array(floors.indices) : floors.indices.reversed()
                for index in order {
                    let cpuBefore = try floors[index].cpuSeconds()
                    let result = try await H2Load.run(
                        port: floors[index].port, method: method, bodyFile: bodyFile, connections: connections,
                        streams: streams,
                        seconds: seconds)
                    let cpuSeconds = try floors[index].cpuSeconds() - cpuBefore
                    guard result.failed == 0, result.succeeded > 0 else {
                        throw CommandFailure("h2load: \(result.failed) calls failed")
                    }
                    runs[index].append(
                        (Double(result.succeeded) / result.seconds, cpuSeconds * 1e6 / Double(result.succeeded)))
                }
                if !json { FileHandle.standardError.write(Data("round \(round)/\(rounds) done\n".utf8)) }
            }
            let servers = zip(["grpc-swift", "swift-nio-http2", "gRPC C++ core", "grpc-swift, unary"], runs).map {
                name, runs in
                Server(
                    name: name, callsPerSecond: runs.map(\.callsPerSecond),
                    cpuMicrosecondsPerCall: runs.map(\.cpuMicroseconds))
            }
            func ratioToCpp(_ index: Int) -> Double {
                Throughput.median(zip(runs[index], runs[2]).map { $0.callsPerSecond / $1.callsPerSecond })
            }
            return Report(
                connections: connections, streamsPerConnection: streams, secondsPerRun: seconds,
                grpcSwift: servers[0], nioHTTP2: servers[1], cppCore: servers[2], grpcSwiftUnaryTransport: servers[3],
                grpcSwiftToCppRatio: ratioToCpp(0), nioHTTP2ToCppRatio: ratioToCpp(1))
        }
        if json { return try JSONOutput.print(report) }
        print(
            """
            gRPC floors, UpdateVehicle with nothing behind it, h2load: \(connections) connections × \(streams) calls in flight, \(seconds) s runs, medians of \(rounds) rounds
            server            calls/s   server CPU µs/call
            \(row(report.grpcSwift))
            \(row(report.nioHTTP2))
            \(row(report.cppCore))
            \(row(report.grpcSwiftUnaryTransport))
            of the C++ core's calls/s: grpc-swift \(String(format: "%.2f", report.grpcSwiftToCppRatio))×, swift-nio-http2 alone \(String(format: "%.2f", report.nioHTTP2ToCppRatio))×
            """)
    }

    private func row(_ server: Server) -> String {
        server.name.padding(toLength: 16, withPad: " ", startingAt: 0)
            + String(format: "%9.0f %12.1f", server.medianCallsPerSecond, server.medianCPUMicrosecondsPerCall)
    }
}
