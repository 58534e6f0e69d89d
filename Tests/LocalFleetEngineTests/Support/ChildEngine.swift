import FleetTokens
import Foundation

/// The built `fleetauth fleet-engine` running as a child process, so that a test can kill it
/// with SIGKILL and start it again on the same data.
final class ChildEngine: @unchecked Sendable {
    // @unchecked: `process` is only touched by the test that owns the engine.
    private let process: Process
    /// The port the engine listens on.
    let port: Int

    /// The `fleetauth` binary built next to the test bundle.
    static var binary: String {
        get throws {
            let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            for candidate in [folder, folder.deletingLastPathComponent()] {
                let path = candidate.appendingPathComponent("fleetauth").path
                if FileManager.default.isExecutableFile(atPath: path) { return path }
            }
            throw TestFailure("no fleetauth binary next to \(folder.path); run 'swift build' first")
        }
    }

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

    /// Starts `fleetauth fleet-engine` on a free port with its data in `folder`, and waits
    /// until it says where it listens.
    init(folder: String) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.binary)
        process.arguments = ["fleet-engine", "--data-dir", folder, "--project", TestKeys.project, "--port", "0"]
            + (try Self.trustArguments(in: folder))
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let reader = output.fileHandleForReading
        let announcement = try await withThrowingTaskGroup(of: String.self) { group in
            group.addTask {
                var text = ""
                while !text.contains("\n") {
                    let data = reader.availableData
                    if data.isEmpty { break }
                    text += String(decoding: data, as: UTF8.self)
                }
                return text
            }
            group.addTask {
                try await Task.sleep(for: .seconds(60))
                throw TestFailure("fleetauth fleet-engine did not start within 60 s")
            }
            defer { group.cancelAll() }
            return try await group.next() ?? ""
        }
        guard let range = announcement.range(of: #"127\.0\.0\.1:(\d+)/"#, options: .regularExpression),
              let port = Int(announcement[range].dropFirst("127.0.0.1:".count).dropLast())
        else {
            process.terminate()
            throw TestFailure("fleetauth fleet-engine said: \(announcement)")
        }
        self.port = port
    }

    /// A client for the engine.
    var client: TestClient { TestClient(port: port) }

    /// Kills the engine with SIGKILL: no chance to flush or close anything.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { kill() }
    }
}
