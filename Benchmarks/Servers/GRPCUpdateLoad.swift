import CommandSupport
import FleetDemo
import Foundation

/// Location updates over the local Fleet Engine's gRPC door for `bench fleet-engine`, from
/// `update-load` (`Benchmarks/grpc-cpp/update-load.cc`): gRPC's C++ core on one thread, in a
/// process of its own, as wrk is for REST. `streams` closed loops share `connections` HTTP/2
/// connections, one update in flight per vehicle, each vehicle with its own driver token; the
/// nth update of a vehicle in run r puts it at latitude 10 + r + n / 10^7 as in the REST runs,
/// so the store's latitude tells which update it holds.
enum GRPCUpdateLoad {
    /// What a run saw.
    struct Result: Decodable {
        /// Answers with status OK.
        let succeeded: Int
        /// Other answers.
        let failed: Int
        /// How long the measured run took, in seconds.
        let seconds: Double
        /// Latency of every answer.
        let latency: LatencySummary
        /// By vehicle index, the highest step answered OK through the last step sent.
        let acknowledged: [Int: ClosedRange<Int>]
        /// The status code and message of the first call that failed, if one did.
        let firstFailure: String?
    }

    /// Runs `program` against 127.0.0.1:`port` for `seconds` after a 1 s warm-up, as run
    /// number `run`, with the driver tokens of `tokensFile` (one per line, in vehicle order).
    /// Returns the run and the load generator's CPU time, the warm-up's share left out.
    static func run(
        program: String, port: Int, project: String, tokensFile: String, connections: Int, streams: Int, seconds: Int,
        run: Int,
        collection: String = "vehicles"
    ) async throws -> (result: Result, cpuSeconds: Double) {
        let child = try await ChildProcess.run(
            [
                program, String(port), project, tokensFile, String(connections), String(streams), String(seconds),
                String(run), collection,
            ],
            standardError: .discarded, timeout: .seconds(seconds + 120)
        ).checked()
        let result = try JSONDecoder().decode(Result.self, from: Data(child.output.utf8))
        return (result, child.cpuSeconds * Double(seconds) / Double(seconds + 1))
    }
}
