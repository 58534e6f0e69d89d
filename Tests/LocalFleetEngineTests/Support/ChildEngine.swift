import FleetTokens
import Foundation

/// The built `fleetauth` running as a child process (`fleet-engine` or `serve`), so that a
/// test can kill it with SIGKILL and start it again on the same data.
final class ChildFleetauth: @unchecked Sendable {
    // @unchecked: `process` is only touched by the test that owns it.
    private let process: Process
    /// What the program printed on standard output up to the line waited for.
    let announcement: String

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

    /// Starts `fleetauth arguments…` and waits (up to 60 s) until its standard output contains
    /// `marker`.
    init(_ arguments: [String], waitingFor marker: String) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.binary)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let reader = output.fileHandleForReading
        do {
            announcement = try await withThrowingTaskGroup(of: String.self) { group in
                group.addTask {
                    var text = ""
                    while !text.contains(marker) {
                        let data = reader.availableData
                        if data.isEmpty { throw TestFailure("fleetauth \(arguments[0]) exited early: \(text)") }
                        text += String(decoding: data, as: UTF8.self)
                    }
                    return text
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(60))
                    throw TestFailure("fleetauth \(arguments[0]) did not start within 60 s")
                }
                defer { group.cancelAll() }
                return try await group.next() ?? ""
            }
        } catch {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw error
        }
    }

    /// The ports of the `http://127.0.0.1:PORT` addresses announced, in order.
    var ports: [Int] {
        announcement.ranges(of: /127\.0\.0\.1:(\d+)/).compactMap { range in
            Int(announcement[range].dropFirst("127.0.0.1:".count))
        }
    }

    /// Kills the program with SIGKILL: no chance to flush or close anything.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { kill() }
    }
}

/// `fleetauth fleet-engine` trusting the test keys, on a free port with its data in a folder.
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
    static func start(folder: String) async throws -> (process: ChildFleetauth, client: TestClient) {
        let arguments = ["fleet-engine", "--data-dir", folder, "--project", TestKeys.project, "--port", "0"] + (try trustArguments(in: folder))
        let process = try await ChildFleetauth(arguments, waitingFor: "\n")
        guard let port = process.ports.first else { throw TestFailure("fleetauth fleet-engine said: \(process.announcement)") }
        return (process, TestClient(port: port))
    }
}
