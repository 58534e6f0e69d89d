import CommandSupport
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The local Fleet Engine as a test harness (`/emulator/v1/`): `fleetauth fleet-engine run`,
/// driven by a backend's test in Python with Google's client (`Tests/Interop/emulator_harness_test.py`),
/// and the harness's refusals.
@Suite(
    "Test harness",
    .enabled(
        "python3 with google-maps-fleetengine is not installed (pip install google-maps-fleetengine); CI installs it"
    ) {
        await GoogleClient.isAvailable()
    }
)
struct EmulatorHarnessTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/emulator_harness_test.py").path

    /// `fleetauth fleet-engine run` on a fresh data directory, trusting the test keys, with its
    /// REST and gRPC ports; killed when `body` ends.
    static func withEngine(_ body: (_ rest: String, _ grpc: String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fleetauth-harness-\(UUID().uuidString)"
        ).path
        try TestKeys.install(in: folder + "/keys")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let engine = try ChildProcess([
            try ChildProcess.fleetauth, "fleet-engine", "run", "--data-dir", folder + "/data", "--project",
            TestKeys.project,
            "--trust", "server=\(folder)/keys/server.json", "--trust", "driver=\(folder)/keys/driver.json", "--port",
            "0", "--grpc-port", "0",
        ])
        defer { engine.kill() }
        _ = try await engine.output(containing: "gRPC on")
        let banner = try await engine.output(containing: "/v1/providers/")
        let rest = try #require(
            banner.firstMatch(of: /on http:\/\/127\.0\.0\.1:(\d+)\//).map { "http://127.0.0.1:\($0.1)" }, "\(banner)")
        let grpc = try #require(
            banner.firstMatch(of: /gRPC on 127\.0\.0\.1:(\d+)/).map { "127.0.0.1:\($0.1)" }, "\(banner)")
        try await body(rest, grpc)
    }

    @Test(
        "a Python test with Google's client resets the engine, injects two UNAVAILABLEs, asserts on the calls, and moves the clock past its tokens"
    )
    func pythonBackendTest() async throws {
        try await Self.withEngine { rest, grpc in
            let input: [String: Any] = [
                "rest": rest, "grpc": grpc, "project": TestKeys.project,
                "tokens": ["server": Tokens.server, "driver": Tokens.driver("py-harness")],
            ]
            let json = String(decoding: try JSONSerialization.data(withJSONObject: input), as: UTF8.self)
            let exit = try await ChildProcess(["python3", Self.script], input: json).exit(within: .seconds(120))
            #expect(exit.succeeded, "\(exit.output)")
            let last = exit.output.split(separator: "\n").last.map(String.init) ?? ""
            let passed =
                (try? JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])?["passed"] as? [String]
            #expect(passed == ["reset", "faults", "calls", "clock", "reset kinds"], "\(exit.output)")
        }
    }

    @Test("the harness refuses what it cannot do, in words, and a latency fault delays without refusing")
    func refusals() async throws {
        try await Self.withEngine { rest, _ in
            func post(_ path: String, _ body: String) async throws -> (status: Int, body: String) {
                var request = URLRequest(url: URL(string: rest + "/emulator/v1/" + path)!)
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(body.utf8)
                let (data, response) = try await URLSession.shared.data(for: request)
                return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
            }
            #expect(try await post("clock", #"{"advance": "soon"}"#).body.contains("advance must be a duration"))
            #expect(try await post("clock", #"{"advance": "1s", "reset": true}"#).body.contains("give one of"))
            #expect(try await post("faults", #"{"method": "UpdateVehicle"}"#).body.contains("give a status"))
            #expect(try await post("faults", #"{"status": "OK"}"#).body.contains("cannot be injected"))
            #expect(try await post("reset", #"{"kinds": ["cars"]}"#).body.contains("is not a kind"))
            #expect(try await post("reset", "").status == 400)
            #expect(
                try await post("clock", #"{"set": "2024-01-01T12:99:00Z"}"#).body.contains(
                    "set must be an RFC 3339 time"), "minute 99 is refused")
            #expect(
                try await post("clock", #"{"set": "2024-02-30T12:00:00Z"}"#).status == 400,
                "a day its month does not have")
            #expect(try await post("clock", #"{"advance": "-99999999999s"}"#).body.contains("stays between 1970"))
            let frozen = try await post("clock", #"{"freeze": true}"#)
            #expect(frozen.status == 200 && frozen.body.contains(#""frozen":true"#), "\(frozen)")
            let set = try await post("clock", #"{"set": "2030-01-02T04:04:05+01:00"}"#)
            #expect(set.body.contains("2030-01-02T03:04:05"), "an offset is read: \(set)")
            try await Task.sleep(for: .milliseconds(100))
            let (still, _) = try await URLSession.shared.data(from: URL(string: rest + "/emulator/v1/clock")!)
            #expect(
                String(decoding: still, as: UTF8.self).contains("2030-01-02T03:04:05.000Z"), "frozen, it stands still")

            let document = URL(fileURLWithPath: Self.script).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
                .appendingPathComponent("docs/local-fleet-engine-emulator.openapi.yaml")
            let (served, _) = try await URLSession.shared.data(from: URL(string: rest + "/emulator/v1/openapi.yaml")!)
            #expect(
                String(decoding: served, as: UTF8.self) == (try String(contentsOf: document, encoding: .utf8)),
                "the served document is the repository's")

            // A latency alone: the call waits, then is answered as it would have been (404: no such
            // vehicle), by the machine's time again.
            #expect(try await post("clock", #"{"reset": true}"#).body.contains(#""frozen":false"#))
            #expect(try await post("faults", #"{"method": "GetVehicle", "latency": "0.5s", "count": 1}"#).status == 200)
            let (listed, _) = try await URLSession.shared.data(from: URL(string: rest + "/emulator/v1/faults")!)
            let faults = try #require(
                (try JSONSerialization.jsonObject(with: listed) as? [String: Any])?["faults"] as? [[String: Any]])
            #expect(
                faults.count == 1 && faults[0]["latency"] as? String == "0.5s" && faults[0]["count"] as? Int == 1,
                "\(faults)")
            var read = URLRequest(url: URL(string: rest + "/v1/providers/\(TestKeys.project)/vehicles/v")!)
            read.setValue("Bearer \(Tokens.server)", forHTTPHeaderField: "Authorization")
            let start = ContinuousClock.now
            let (_, response) = try await URLSession.shared.data(for: read)
            #expect((response as? HTTPURLResponse)?.statusCode == 404)
            #expect(ContinuousClock.now - start >= .milliseconds(450))
            let (after, _) = try await URLSession.shared.data(from: URL(string: rest + "/emulator/v1/faults")!)
            #expect(
                String(decoding: after, as: UTF8.self) == #"{"faults":[]}"#,
                "a fault with a count ends once it has matched")
        }
    }
}
