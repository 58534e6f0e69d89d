import CommandSupport
import Foundation
import LocalFleetEngine

/// Vehicles created through the local Fleet Engine's gRPC door for `bench fleet-engine-scale`,
/// by `create-load` (`Benchmarks/grpc-cpp/create-load.cc`): gRPC's C++ core on one thread, in
/// a process of its own, as a dispatch backend's load test would create its fleet. Every call
/// is answered only once its vehicle is durable.
enum GRPCVehicleCreation {
    /// What a run saw.
    struct Result: Decodable {
        /// Calls answered OK.
        let succeeded: Int
        /// Other answers.
        let failed: Int
        /// From the first call to the last answer.
        let seconds: Double
        /// The status code and message of the first call that failed, if one did.
        let firstFailure: String?
    }

    /// Runs `program` against 127.0.0.1:`port`, creating `count` vehicles at `location` with
    /// `streams` calls in flight over `connections` HTTP/2 connections, authorized by the token
    /// in `tokenFile`.
    static func run(
        program: String, port: Int, project: String, tokenFile: String, count: Int, connections: Int, streams: Int,
        at location: LatLng
    ) async throws -> Result {
        let child = try await ChildProcess.run(
            [
                program, String(port), project, tokenFile, String(count), String(connections), String(streams),
                String(location.latitude), String(location.longitude),
            ],
            standardError: .discarded, timeout: .seconds(600)
        ).checked()
        return try JSONDecoder().decode(Result.self, from: Data(child.output.utf8))
    }
}
