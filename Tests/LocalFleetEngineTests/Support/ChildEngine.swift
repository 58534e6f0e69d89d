import FleetTokens
import Foundation
import TestSupport

/// `fleetauth fleet-engine` trusting the test keys, on a free port with its data in a folder,
/// as a child process that a test can kill with SIGKILL and start again on the same data.
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

    /// Starts the engine and returns it with a client for it.
    static func start(folder: String) async throws -> (process: ChildProgram, client: TestClient) {
        let arguments = ["fleet-engine", "--data-dir", folder, "--project", TestKeys.project, "--port", "0"] + (try trustArguments(in: folder))
        let engine = try ChildProgram(try ChildProgram.fleetauth, arguments, keepingErrors: false)
        let announcement = try await engine.output(containing: "\n")
        guard let port = ChildProgram.loopbackPorts(in: announcement).first else { throw TestFailure("fleetauth fleet-engine said: \(announcement)") }
        return (engine, TestClient(port: port))
    }
}
