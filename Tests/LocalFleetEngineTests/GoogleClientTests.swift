import CommandSupport
import Foundation
import TestSupport
import Testing

/// Google's own Python client for Fleet Engine (`google-maps-fleetengine`), driven by
/// `Tests/Interop/fleetengine_client.py` against a local Fleet Engine's gRPC door, with nothing
/// changed but its channel.
enum GoogleClient {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/fleetengine_client.py").path

    /// Whether python3 with google-maps-fleetengine is here. CI installs it, so there a missing
    /// module fails the run instead of skipping.
    static func isAvailable() async -> Bool {
        if ProcessInfo.processInfo.environment["CI"] != nil { return true }
        let exit = try? await ChildProcess(["python3", "-c", "import google.maps.fleetengine_v1"])
            .exit(within: .seconds(60))
        return exit?.exited == true && exit?.status == 0
    }
}

@Suite(
    "Google's Python Fleet Engine client",
    .enabled(
        "python3 with google-maps-fleetengine is not installed (pip install google-maps-fleetengine); CI installs it"
    ) {
        await GoogleClient.isAvailable()
    }
)
struct GoogleClientTests {
    @Test func createsReadsUpdatesAndSearchesAndIsRefusedAsByFleetEngine() async throws {
        let engine = try await TestEngine.shared
        let port = try #require(engine.grpcPort)
        let tokens = [
            "server": Tokens.server, "driver": Tokens.driver("py-vehicle"), "consumer": Tokens.consumer("py-trip"),
            "other_driver": Tokens.driver("v1"),
        ]
        let input = try JSONSerialization.data(withJSONObject: [
            "target": "127.0.0.1:\(port)", "project": TestKeys.project, "tokens": tokens,
        ])
        let exit = try await ChildProcess(
            ["python3", GoogleClient.script], input: String(decoding: input, as: UTF8.self)
        ).exit(within: .seconds(120))
        try #require(exit.exited && exit.status == 0, "\(exit.output)")
        let lastLine = exit.output.split(separator: "\n").last.map(String.init) ?? ""
        let seen = try #require(
            try JSONSerialization.jsonObject(with: Data(lastLine.utf8)) as? [String: Any], "\(exit.output)")
        let name = "providers/\(TestKeys.project)"

        #expect(
            seen["created_vehicle"] as? [String: String] == ["name": "\(name)/vehicles/py-vehicle", "state": "ONLINE"])
        #expect(seen["read_vehicle"] as? NSDictionary == ["capacity": 4, "category": "AUTO"])
        #expect(seen["moved_vehicle"] as? [String: Double] == ["latitude": 35.69])
        #expect(seen["search"] as? [String] == ["\(name)/vehicles/py-vehicle"])
        #expect(seen["listed"] as? [String] == (0..<3).map { "\(name)/vehicles/py-listed-\($0)" })
        #expect(seen["created_trip"] as? [String: String] == ["name": "\(name)/trips/py-trip", "status": "NEW"])
        #expect(seen["read_trip"] as? [String: String] == ["vehicle": "py-vehicle"])
        #expect(seen["started_trip"] as? [String: String] == ["status": "ENROUTE_TO_PICKUP"])
        #expect(seen["searched_trips"] as? [String] == ["\(name)/trips/py-trip"])
        #expect(seen["delete_busy_vehicle"] as? String == "FAILED_PRECONDITION")
        #expect(seen["deleted"] as? [String: String] == ["vehicle": "NOT_FOUND", "trip": "NOT_FOUND"])
        #expect(
            seen["refusals"] as? [String: String] == [
                "no_token": "UNAUTHENTICATED", "driver_creates_vehicle": "PERMISSION_DENIED",
                "other_driver_reads_vehicle": "PERMISSION_DENIED",
                "missing_vehicle": "NOT_FOUND", "vehicle_exists": "ALREADY_EXISTS",
                "no_update_mask": "INVALID_ARGUMENT",
                "list_without_categories": "INVALID_ARGUMENT", "driver_lists_vehicles": "PERMISSION_DENIED",
            ])
    }
}
