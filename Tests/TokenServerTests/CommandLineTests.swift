import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The built `fleetauth` binary, driven as a person would: the server as a child process, the
/// account and assignment commands on its data directory while it runs.
@Suite("fleetauth token-server, accounts and assign")
struct CommandLineTests {
    /// The `fleetauth` binary built next to the test bundle.
    private static func binary() throws -> String {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [folder, folder.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("fleetauth").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        try #require(Bool(false), "no fleetauth binary next to \(folder.path); run 'swift build' first")
        return ""
    }

    /// Runs `fleetauth arguments` with `input` on standard input; returns exit status and output.
    private func fleetauth(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.binary())
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test("a newcomer's walk: start, create, assign, log in, get a token; revoke from the command line at once")
    func walkthrough() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleetauth-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let data = ["--data-dir", folder]

        let missing = try fleetauth(["accounts", "list"] + data)
        #expect(missing.status != 0)
        #expect(missing.output.contains("start 'fleetauth token-server --data-dir"))

        let server = Process()
        server.executableURL = URL(fileURLWithPath: try Self.binary())
        server.arguments = ["token-server", "--port", "0", "--bcrypt-cost", "4", "--log-level", "warning"] + data
        let output = Pipe()
        server.standardOutput = output
        try server.run()
        defer { if server.isRunning { server.terminate() } }
        var announced = ""
        while !announced.contains("listening on") {
            let chunk = output.fileHandleForReading.availableData
            try #require(!chunk.isEmpty, "the server ended before listening: \(announced)")
            announced += String(decoding: chunk, as: UTF8.self)
        }
        #expect(announced.contains("created the admin API key in \(folder)/admin-key"))
        let adminKey = try String(contentsOfFile: folder + "/admin-key", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!announced.contains(adminKey))
        let port = try #require(announced.split(separator: ":").compactMap { Int($0.prefix { $0.isNumber }) }.first)

        #expect(try fleetauth(["accounts", "create", "ann", "--role", "driver", "--bcrypt-cost", "4"] + data, input: "correct horse\n").status == 0)
        #expect(try fleetauth(["assign", "vehicle", "v-1", "ann"] + data).status == 0)
        let refused = try fleetauth(["assign", "vehicle", "*", "ann"] + data)
        #expect(refused.status != 0 && refused.output.contains("vehicle id contains '*'"))
        let badRole = try fleetauth(["accounts", "create", "bob", "--role", "pilot"] + data, input: "correct horse\n")
        #expect(badRole.status != 0 && badRole.output.contains("unknown role \"pilot\""))
        #expect(try fleetauth(["accounts", "list"] + data).output.contains("vehicle/v-1"))

        let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(20)))
        client.connect()
        let login = try await client.post("/v1/sessions", headers: [.contentType: "application/json"], body: ByteBuffer(string: #"{"username":"ann","password":"correct horse"}"#))
        let session = try #require((try JSONSerialization.jsonObject(with: Data(buffer: login.body ?? ByteBuffer())) as? [String: Any])?["sessionToken"] as? String)
        let bearer: HTTPFields = [.authorization: "Bearer \(session)"]
        #expect(try await client.get("/v1/tokens/driver/v-1", headers: bearer).status == .ok)

        #expect(try fleetauth(["assign", "vehicle", "v-1", "--remove"] + data).status == 0)
        #expect(try await client.get("/v1/tokens/driver/v-1", headers: bearer).status == .forbidden)
        #expect(try fleetauth(["accounts", "delete", "ann"] + data).status == 0)
        #expect(try await client.get("/v1/tokens/driver/v-1", headers: bearer).status == .unauthorized)
        try await client.shutdown()

        server.terminate()
        server.waitUntilExit()
        #expect(server.terminationReason == .exit && server.terminationStatus == 0, "SIGTERM ends the server gracefully")
    }
}
