import CommandSupport
import FleetAuthLocking
import Foundation
import TestSupport
import Testing

/// REST location updates are answered in the channel pipeline (`LocationUpdateRoute`) when the
/// path is plain and the body announced by `Content-Length`; the router answers the rest. Both
/// must give the same answers, and an update is answered only once it is saved.
@Suite("REST UpdateVehicle in the pipeline and through the router")
struct VehicleUpdateRouteTests {
    /// An update, and how it is expected to end.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let vehicle: String
        let token: String?
        var query = "?updateMask=lastLocation"
        var body = Fixtures.locationUpdate(latitude: 10.0002, longitude: 10)
        let status: Int

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "the driver's own vehicle", vehicle: "route-1", token: Tokens.driver("route-1"), status: 200),
        Case(
            name: "enums by number", vehicle: "route-3", token: Tokens.server,
            query: "?updateMask=vehicleState&$alt=json;enum-encoding=int", body: #"{"vehicleState":"ONLINE"}"#,
            status: 200),
        Case(name: "no token", vehicle: "route-1", token: nil, status: 401),
        Case(name: "another driver's vehicle", vehicle: "v2", token: Tokens.driver("route-1"), status: 403),
        Case(
            name: "a field a driver may not set", vehicle: "route-1", token: Tokens.driver("route-1"),
            query: "?updateMask=attributes",
            body: #"{"attributes":[]}"#, status: 403),
        Case(name: "no update mask", vehicle: "route-1", token: Tokens.driver("route-1"), query: "", status: 400),
        Case(
            name: "an unknown field", vehicle: "route-1", token: Tokens.driver("route-1"),
            body: #"{"lastLocation":{},"colour":"red"}"#, status: 400),
        Case(
            name: "a body that is no JSON", vehicle: "route-1", token: Tokens.driver("route-1"), body: "lat=52",
            status: 400),
        Case(name: "an empty body", vehicle: "route-1", token: Tokens.driver("route-1"), body: "", status: 400),
        Case(name: "no such vehicle", vehicle: "v-none", token: Tokens.server, status: 404),
    ]

    /// `id` with every character percent-escaped: the same vehicle to the router, a path the
    /// pipeline route leaves alone.
    static func escaped(_ id: String) -> String {
        id.utf8.map { String(format: "%%%02X", $0) }.joined()
    }

    /// A vehicle of this suite's own on the shared engine (other suites move theirs meanwhile),
    /// far from the fixtures' Berlin, where the search tests look.
    static func ownVehicle(_ id: String, on client: TestClient) async throws {
        let created = try await client.send(
            .POST, "\(Fixtures.provider)/vehicles?vehicleId=\(id)", token: Tokens.server,
            body: Fixtures.vehicleBody(latitude: 10, longitude: 10))
        try #require(created.status == 200 || created.status == 409, "\(created)")
    }

    @Test("the pipeline route and the router answer alike", arguments: cases)
    func bothAnswerAlike(_ update: Case) async throws {
        let client = try await TestEngine.shared
        // Each case that changes a vehicle has one of its own: the cases run at once.
        if update.vehicle.hasPrefix("route-") { try await Self.ownVehicle(update.vehicle, on: client) }
        func send(_ id: String) async throws -> TestResponse {
            try await client.send(
                .PUT, "\(Fixtures.provider)/vehicles/\(id)\(update.query)",
                authorization: update.token.map { "Bearer \($0)" }, body: update.body)
        }
        let inPipeline = try await send(update.vehicle)
        let throughRouter = try await send(Self.escaped(update.vehicle))
        #expect(inPipeline.status == update.status, "\(inPipeline)")
        #expect(throughRouter.status == update.status, "\(throughRouter)")
        if update.status == 200 {
            #expect(Self.withoutServerTime(inPipeline) == Self.withoutServerTime(throughRouter))
        } else {
            #expect(inPipeline.body == throughRouter.body)
        }
    }

    @Test("enums are answered by number when the query asks for it")
    func enumsByNumber() async throws {
        let client = try await TestEngine.shared
        try await Self.ownVehicle("route-1", on: client)
        let answer = try await client.send(
            .PUT, "\(Fixtures.provider)/vehicles/route-1?updateMask=vehicleState&$alt=json;enum-encoding=int",
            token: Tokens.server, body: #"{"vehicleState":"ONLINE"}"#)
        #expect(answer.status == 200 && answer.json["vehicleState"] as? Int == 2, "\(answer)")
    }

    @Test("a chunked body goes to the router, which saves the update")
    func chunkedBody() async throws {
        let client = try await TestEngine.shared
        try await Self.ownVehicle("route-2", on: client)
        let body = Fixtures.locationUpdate(latitude: 10.0003, longitude: 10)
        let request =
            "PUT \(Fixtures.provider)/vehicles/route-2?updateMask=lastLocation HTTP/1.1\r\nHost: x\r\n"
            + "Authorization: Bearer \(Tokens.driver("route-2"))\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            + String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n"
        let answer = try await RawHTTP.exchange(port: client.port, request: Array(request.utf8))
        #expect(answer.status == 200, "\(answer)")
        #expect(answer.body.contains("10.0003"), "\(answer)")
    }

    @Test("an update is answered only once its save is done; a failed save is a 503 and nothing of it is shown")
    func answeredOnceSaved() async throws {
        let faulty = Locked<FaultyStore?>(nil)
        try await TestEngine.withDatabase(wrap: { store in
            let wrapped = FaultyStore(store)
            faulty.withLock { $0 = wrapped }
            return wrapped
        }) { client, _ in
            let store = try #require(faulty.withLock { $0 })
            let created = try await client.send(
                .POST, "\(Fixtures.provider)/vehicles?vehicleId=held", token: Tokens.server,
                body: Fixtures.vehicleBody(latitude: 52.5, longitude: 13.4))
            try #require(created.status == 200, "\(created)")
            let path = "\(Fixtures.provider)/vehicles/held?updateMask=lastLocation"

            store.hold()
            let moving = Task {
                try await client.send(
                    .PUT, path, token: Tokens.driver("held"),
                    body: Fixtures.locationUpdate(latitude: 52.6, longitude: 13.4))
            }
            try await waitUntil { store.waiting == 1 }
            try await Task.sleep(for: .milliseconds(50))
            let savesBefore = store.savedRecords
            store.release()
            let moved = try await moving.value
            #expect(moved.status == 200 && store.savedRecords == savesBefore + 1, "\(moved)")

            store.failNextSave()
            let failed = try await client.send(
                .PUT, path, token: Tokens.driver("held"), body: Fixtures.locationUpdate(latitude: 52.7, longitude: 13.4)
            )
            #expect(failed.status == 503 && failed.errorStatus == "UNAVAILABLE", "\(failed)")
            let shown = try await client.send(.GET, "\(Fixtures.provider)/vehicles/held", token: Tokens.server)
            #expect(shown.value("lastLocation.location.latitude") as? Double == 52.6, "\(shown)")
        }
    }

    /// The answer's JSON without `lastLocation.serverTime`, which is when the engine got it.
    static func withoutServerTime(_ response: TestResponse) -> NSDictionary {
        var json = response.json
        if var location = json["lastLocation"] as? [String: Any] {
            location["serverTime"] = nil
            json["lastLocation"] = location
        }
        return json as NSDictionary
    }
}
