import AsyncHTTPClient
import FleetEngineProtos
import Foundation
import GRPCCore
import LocalFleetEngine
import NIOCore
import TestSupport
import Testing

/// The console's API on a real engine: what it shows, what it refuses, what it streams, and
/// export and import between two engines.
@Suite("Console API")
struct ConsoleAPITests {
    private static let provider = Fixtures.provider

    private static func withConsole<Result: Sendable>(
        _ access: ConsoleAccess = .loopback, _ body: @Sendable (TestClient) async throws -> Result
    ) async throws -> Result {
        try await TestEngine.with(configure: { $0.console = access }, body)
    }

    private static func createVehicle(_ id: String, on engine: TestClient, latitude: Double = 52.52) async throws {
        let created = try await engine.send(
            .POST, "\(provider)/vehicles?vehicleId=\(id)", token: Tokens.server,
            body: Fixtures.vehicleBody(latitude: latitude, longitude: 13.405))
        #expect(created.status == 200, "\(created)")
    }

    @Test(
        "The overview counts resources and calls, and names the doors and the trusted accounts by email, role and key id only"
    )
    func overview() async throws {
        try await Self.withConsole { engine in
            try await Self.createVehicle("v-1", on: engine)
            let overview = try await engine.send(.GET, "/console/api/overview", authorization: nil)
            #expect(overview.status == 200, "\(overview)")
            #expect(overview.value("counts.vehicles") as? Int == 1)
            #expect(overview.value("requests.calls") as? Int == 1)
            let doors = overview.value("doors") as? [[String: String]] ?? []
            #expect(doors.map { $0["name"] } == ["REST", "gRPC"] || doors.map { $0["name"] } == ["gRPC", "REST"])
            #expect(doors.contains { $0["address"] == "http://127.0.0.1:\(engine.port)" })
            let accounts = overview.value("accounts") as? [[String: Any]] ?? []
            let driver = accounts.first { $0["email"] as? String == TestKeys.driver.clientEmail }
            #expect(driver?["role"] as? String == "driver")
            #expect(driver?["keyIDs"] as? [String] == [TestKeys.driver.privateKeyID])
            #expect(Set(accounts.flatMap { $0.keys }) == ["email", "role", "keyIDs"])
        }
    }

    @Test(
        "Every call through either door is in the table: a refusal with its status and rule, the token's signer, role and claims, never the token"
    )
    func requestTable() async throws {
        try await Self.withConsole { engine in
            try await Self.createVehicle("v-1", on: engine)
            let token = Tokens.driver("v-2")
            let refused = try await engine.send(
                .PUT, "\(Self.provider)/vehicles/v-1?updateMask=lastLocation", token: token,
                body: Fixtures.locationUpdate(latitude: 52.6, longitude: 13.4))
            #expect(refused.status == 403)
            try await GRPCTestClient.with(engine) { grpc in
                _ = try? await grpc.vehicles.getVehicle(
                    .with { $0.name = "providers/\(TestKeys.project)/vehicles/v-1" },
                    metadata: GRPCTestClient.bearer(Tokens.consumer("t-9")))
            }
            let page = try await engine.send(.GET, "/console/api/requests?status=refused", authorization: nil)
            let rows = page.value("requests") as? [[String: Any]] ?? []
            #expect(rows.count == 2, "\(page)")
            let grpcRow = rows.first, restRow = rows.last
            #expect(grpcRow?["door"] as? String == "grpc")
            #expect(grpcRow?["method"] as? String == "GetVehicle")
            #expect(grpcRow?["resource"] as? String == "v-1")
            #expect(grpcRow?["role"] as? String == "consumer")
            #expect(restRow?["method"] as? String == "UpdateVehicle")
            #expect(restRow?["status"] as? String == "PERMISSION_DENIED")
            #expect(restRow?["httpStatus"] as? Int == 403)
            #expect((restRow?["rule"] as? String)?.contains("vehicleid claim ('v-2')") == true)
            #expect(restRow?["signer"] as? String == TestKeys.driver.clientEmail)
            #expect((restRow?["claims"] as? [String: String])?["vehicleid"] == "v-2")
            #expect(!page.body.contains(token) && !page.body.contains("eyJ"))

            let filtered = try await engine.send(
                .GET, "/console/api/requests?method=CreateVehicle&role=server&resource=v-1", authorization: nil)
            #expect((filtered.value("requests") as? [Any])?.count == 1)
        }
    }

    @Test("The live stream sends a moved vehicle's mark, what changed only, within a second, and no token")
    func liveStream() async throws {
        try await Self.withConsole { engine in
            try await Self.createVehicle("v-1", on: engine)
            try await Self.createVehicle("v-still", on: engine)
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(engine.port)/console/api/events")
            request.method = .GET
            let response = try await TestClient.http.execute(request, timeout: .seconds(30))
            #expect(response.headers.first(name: "content-type") == "text/event-stream")
            var events = response.body.makeAsyncIterator()
            // The stream is open once its first event (stats) arrived.
            var received = String(buffer: try #require(await events.next()))
            #expect(received.hasPrefix("event: stats"))
            let token = Tokens.driver("v-1")
            let moved = try await engine.send(
                .PUT, "\(Self.provider)/vehicles/v-1?updateMask=lastLocation", token: token,
                body: Fixtures.locationUpdate(latitude: 52.61, longitude: 13.41))
            #expect(moved.status == 200)
            let sent = ContinuousClock.now
            while !received.contains("[52.61,13.41]") {
                guard ContinuousClock.now - sent < .seconds(20), let chunk = try await events.next() else { break }
                received += String(buffer: chunk)
            }
            #expect(
                received.contains(
                    #"{"heading":90,"id":"v-1","kind":"vehicle","position":[52.61,13.41],"state":"ONLINE"}"#),
                "\(received)")
            // Only v-1 changed after the stream opened.
            #expect(!received.contains("v-still"))
            #expect(!received.contains(token) && !received.contains("eyJ"))
        }
    }

    @Test("A vehicle's trail comes back with the replay's marks: a gap between two updates 90 s apart")
    func trail() async throws {
        try await Self.withConsole { engine in
            try await Self.createVehicle("v-1", on: engine)
            for (second, latitude) in [(0, 52.5), (5, 52.5001), (95, 52.5002)] {
                let body =
                    #"{"lastLocation":{"location":{"latitude":\#(latitude),"longitude":13.4},"updateTime":"2026-12-01T10:00:\#(String(format: "%02d", second % 60))Z"}}"#
                    .replacingOccurrences(of: "10:00:35Z", with: "10:01:35Z")
                let updated = try await engine.send(
                    .PUT, "\(Self.provider)/vehicles/v-1?updateMask=lastLocation", token: Tokens.driver("v-1"),
                    body: body)
                #expect(updated.status == 200, "\(updated)")
            }
            let trail = try await engine.send(.GET, "/console/api/trail/vehicle/v-1", authorization: nil)
            // The creation's position (no updateTime: the server's clock) is in the trail too.
            let points = trail.value("points") as? [[Double]] ?? []
            #expect(points.suffix(3).map { $0[0] } == [52.5, 52.5001, 52.5002], "\(trail)")
            let gaps = trail.value("gaps") as? [[String: Double]] ?? []
            #expect(gaps.contains { $0["seconds"] == 90 }, "\(trail)")
            let wrongKind = try await engine.send(.GET, "/console/api/trail/trip/t-1", authorization: nil)
            #expect(wrongKind.status == 400)
        }
    }

    @Test(
        "Export, import into a fresh engine, export again: the same document; an engine that has resources refuses an import"
    )
    func exportAndImport() async throws {
        let document = try await Self.withConsole { engine in
            try await Self.createVehicle("v-1", on: engine)
            try await Self.createVehicle("v-2", on: engine, latitude: 52.53)
            let trip = try await engine.send(
                .POST, "\(Self.provider)/trips?tripId=t-1", token: Tokens.server,
                body: Fixtures.tripBody(vehicleID: "v-1"))
            #expect(trip.status == 200)
            let export = try await engine.send(.GET, "/console/api/export", authorization: nil)
            #expect(export.status == 200)
            return export.body
        }
        #expect(document.contains(#""vehicles":[{"name":"providers/\#(TestKeys.project)/vehicles/v-1""#))
        try await Self.withConsole { engine in
            let imported = try await engine.send(.POST, "/console/api/import", authorization: nil, body: document)
            #expect(imported.status == 200, "\(imported)")
            #expect(imported.value("vehicles") as? Int == 2 && imported.value("trips") as? Int == 1)
            // The imported trip is v-1's current trip, as the engine it came from said.
            let vehicle = try await engine.send(.GET, "\(Self.provider)/vehicles/v-1", token: Tokens.server)
            #expect(vehicle.value("currentTrips") as? [String] == ["t-1"])
            let again = try await engine.send(.GET, "/console/api/export", authorization: nil)
            #expect(again.body == document)
            let twice = try await engine.send(.POST, "/console/api/import", authorization: nil, body: document)
            #expect(twice.status == 400 && twice.errorMessage.contains("import only into an empty engine"), "\(twice)")
            let broken = try await engine.send(
                .POST, "/console/api/import", authorization: nil, body: #"{"format":"x"}"#)
            #expect(broken.status == 400 && broken.errorMessage.contains("format"))
        }
    }

    @Test(
        "A loopback console refuses other host names and cross-site writes; a keyed one wants its key; an engine without one has no /console/"
    )
    func access() async throws {
        try await Self.withConsole { engine in
            let rebound = try await engine.send(
                .GET, "/console/api/overview", authorization: nil, headers: [("Host", "attacker.example")])
            #expect(rebound.status == 403, "\(rebound)")
            let page = try await engine.send(.GET, "/console/", authorization: nil)
            #expect(page.status == 200 && page.body.contains("<title>Local Fleet Engine console</title>"))
            let crossSite = try await engine.send(
                .POST, "/console/api/import", authorization: nil,
                headers: [("Origin", "http://attacker.example")], body: "{}")
            #expect(crossSite.status == 403, "\(crossSite)")
        }
        let key = "console-key-for-the-tests"
        try await Self.withConsole(.key(key)) { engine in
            #expect(
                try await engine.send(.GET, "/console/api/access", authorization: nil).value("keyRequired") as? Bool
                    == true)
            #expect(
                try await engine.send(.GET, "/console/", authorization: nil, headers: [("Host", "fleet.example")])
                    .status == 200)
            #expect(try await engine.send(.GET, "/console/api/overview", authorization: nil).status == 401)
            #expect(
                try await engine.send(
                    .GET, "/console/api/overview", authorization: nil, headers: [("X-Console-Key", "guess")]
                ).status == 401)
            // The router drops empty path parts; the guard reads the path as the router does.
            for path in ["/console//api/export", "//console/api/export", "/console/api//export"] {
                let sneaked = try await engine.send(
                    .GET, path, authorization: nil, headers: [("Host", "fleet.example")])
                #expect(sneaked.status == 401, "\(path): \(sneaked.status)")
            }
            let opened = try await engine.send(
                .GET, "/console/api/overview", authorization: nil,
                headers: [("X-Console-Key", key), ("Host", "fleet.example")])
            #expect(opened.status == 200)
            #expect(!opened.body.contains(key))
        }
        try await Self.withConsole(.off) { engine in
            let page = try await engine.send(.GET, "/console/", authorization: nil)
            let overview = try await engine.send(.GET, "/console/api/overview", authorization: nil)
            #expect(page.status == 404 && overview.status == 404)
        }
    }
}
