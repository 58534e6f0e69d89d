import CommandSupport
import FleetTokens
import Foundation
import TestSupport

/// `fleetauth fleet-engine` trusting the test keys, on free ports (REST and gRPC) with its data
/// in a folder, as a child process that a test can kill with SIGKILL and start again on the
/// same data.
enum ChildEngine {
    /// Writes the test keys as key files into `folder` and returns the `--trust` arguments.
    static func trustArguments(in folder: String) throws -> [String] {
        var arguments: [String] = []
        for (key, role) in TestKeys.trusted {
            let path = "\(folder)/\(role.shortName).json"
            if !FileManager.default.fileExists(atPath: path) { try key.write(to: path) }
            arguments += ["--trust", path]
        }
        return arguments
    }

    /// Starts the engine (with `extra` arguments) and returns it with a client for its REST door
    /// and its gRPC port.
    static func start(folder: String, arguments extra: [String] = []) async throws -> (
        process: ChildProcess, client: TestClient, grpcPort: Int
    ) {
        let arguments =
            ["fleet-engine", "--data-dir", folder, "--project", TestKeys.project, "--port", "0", "--grpc-port", "0"]
            + (try trustArguments(in: folder)) + extra
        let engine = try ChildProcess([try ChildProcess.fleetauth] + arguments, standardError: .discarded)
        _ = try await engine.output(containing: "gRPC on ")
        let announcement = try await engine.output(containing: "on http://")
        func port(onLineWith marker: String) throws -> Int {
            let line = announcement.split(separator: "\n").first { $0.contains(marker) }.map(String.init) ?? ""
            guard let port = ChildProcess.loopbackPorts(in: line).first else {
                throw TestFailure("fleetauth fleet-engine said: \(announcement)")
            }
            return port
        }
        return (engine, TestClient(port: try port(onLineWith: "on http://")), try port(onLineWith: "gRPC on "))
    }
}
