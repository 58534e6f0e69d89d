import CommandSupport
import ArgumentParser
import Foundation

/// `fleetauth-bench grpc-load` (hidden): one run of ``GRPCUpdateLoad`` in a process of its own,
/// printing its result as JSON, so that `bench fleet-engine` can tell the engine's CPU time from
/// the load generator's, as it does with `wrk`.
struct GRPCLoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grpc-load", abstract: "One gRPC load run for bench fleet-engine (prints JSON).", shouldDisplay: false)

    @Option(help: "The gRPC port on 127.0.0.1.")
    var port: Int

    @Option(help: "The provider of the vehicles.")
    var project: String

    @Option(help: "A file of driver tokens, one per line, in vehicle order.")
    var tokensFile: String

    @Option(help: "HTTP/2 connections.")
    var connections: Int

    @Option(help: "Concurrent calls in all.")
    var streams: Int

    @Option(help: "Seconds of the measured run, after a 1 s warm-up.")
    var seconds: Int

    @Option(name: .customLong("run"), help: "The run's number, which places the vehicles' updates.")
    var runNumber: Int

    func run() async throws {
        guard #available(macOS 15.0, *) else { throw CommandFailure("grpc-swift 2 needs macOS 15") }
        let tokens = try String(contentsOfFile: tokensFile, encoding: .utf8).split(separator: "\n").map(String.init)
        let load = GRPCUpdateLoad(
            port: port, project: project, tokens: tokens, vehicleID: { FleetEngineBench.vehicleID($0) }, connections: connections, streams: streams)
        _ = try await load.run(seconds: 1, run: runNumber)
        try JSONOutput.print(try await load.run(seconds: seconds, run: runNumber))
    }
}
