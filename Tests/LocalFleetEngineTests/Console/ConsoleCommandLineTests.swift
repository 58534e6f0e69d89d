import CommandSupport
import Foundation
import TestSupport
import Testing

/// The console's switches on `fleetauth fleet-engine`, and the console of `fleetauth demo
/// --linger`, as a developer meets them: child processes, their start-up lines, their doors.
@Suite("Console on the command line")
struct ConsoleCommandLineTests {
    private static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("console-cli-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `fleetauth fleet-engine` on `host` with `extra` arguments, started, with its output up
    /// to its console line and its REST port.
    private static func engine(in folder: String, host: String, _ extra: [String]) async throws -> (
        ChildProcess, String, Int
    ) {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let arguments =
            [
                "fleet-engine", "--data-dir", folder, "--project", TestKeys.project, "--host", host, "--port", "0",
                "--grpc-port", "0",
            ]
            + (try ChildEngine.trustArguments(in: folder)) + extra
        let engine = try ChildProcess([try ChildProcess.fleetauth] + arguments, standardError: .discarded)
        let output = try await engine.output(containing: "  console: ")
        guard let range = output.firstRange(of: /on http:\/\/[^:]+:(\d+)\//),
            let port = Int(output[range].split(separator: ":").last!.dropLast())
        else { throw TestFailure("no address in: \(output)") }
        return (engine, output, port)
    }

    @Test("--console off and --console-key: what the start-up lines say, and what the engine answers")
    func switches() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let short = folder + "/short-key"
        try Data("too-short\n".utf8).write(to: URL(fileURLWithPath: short))
        let refused = try await ChildProcess.runFleetauth(
            ["fleet-engine", "--data-dir", folder, "--project", TestKeys.project, "--console-key", short]
                + (try ChildEngine.trustArguments(in: folder)))
        #expect(
            refused.status != 0 && refused.output.contains("should hold a key of at least 16 characters"),
            "\(refused.output)")

        let (off, offLines, offPort) = try await Self.engine(
            in: folder + "/off", host: "127.0.0.1", ["--console", "off"])
        defer { off.kill() }
        #expect(offLines.contains("console: off (--console off)"))
        #expect(try await TestClient(port: offPort).send(.GET, "/console/", authorization: nil).status == 404)
        off.kill()

        let (wide, wideLines, _) = try await Self.engine(in: folder + "/wide", host: "0.0.0.0", [])
        defer { wide.kill() }
        #expect(
            wideLines.contains("console: off: the engine listens beyond loopback; give --console-key FILE to open it"),
            "\(wideLines)")
        wide.kill()

        let keyFile = folder + "/console-key"
        let key = "a-console-key-from-a-file"
        try Data((key + "\n").utf8).write(to: URL(fileURLWithPath: keyFile))
        let (keyed, keyedLines, keyedPort) = try await Self.engine(
            in: folder + "/keyed", host: "0.0.0.0", ["--console-key", keyFile])
        defer { keyed.kill() }
        #expect(keyedLines.contains("/console/ (asks for the key in \(keyFile))"), "\(keyedLines)")
        #expect(!keyedLines.contains(key))
        let client = TestClient(port: keyedPort)
        #expect(try await client.send(.GET, "/console/api/overview", authorization: nil).status == 401)
        #expect(
            try await client.send(.GET, "/console/api/overview", authorization: nil, headers: [("X-Console-Key", key)])
                .status == 200)
    }

    @Test("demo prints its console's address and, with --linger, keeps the servers up after the report")
    func demoLingers() async throws {
        let demo = try ChildProcess(
            [try ChildProcess.fleetauth, "demo", "--drivers", "2", "--duration", "5", "--linger", "60"],
            standardError: .discarded)
        defer { demo.kill() }
        let output = try await demo.output(containing: "The servers stay up for 60 s: ", within: .seconds(120))
        #expect(output.hasPrefix("Fleet console: http://127.0.0.1:"))
        #expect(output.contains("Result: OK"))
        guard let range = output.firstRange(of: /stay up for 60 s: http:\/\/127\.0\.0\.1:(\d+)\/console\//),
            let port = Int(output[range].split(separator: ":").last!.prefix { $0.isNumber })
        else { throw TestFailure("no console address in: \(output)") }
        let overview = try await TestClient(port: port).send(.GET, "/console/api/overview", authorization: nil)
        #expect(overview.status == 200)
        #expect(overview.value("counts.vehicles") as? Int == 2, "\(overview)")
    }
}
