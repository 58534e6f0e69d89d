import CommandSupport
import FleetTokens
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// The issue's "done when", against the built `fleetauth serve`: a driver's token from the
/// token server moves its own vehicle and nothing else; a consumer's token reads its own trip
/// and nothing else.
@Suite("fleetauth serve, end to end")
struct ServeEndToEndTests {
    static let project = "e2e-fleet"
    static let password = "e2e-password-1"

    @Test func driverAndConsumerTokensReachOnlyTheirOwnResources() async throws {
        let serve = try await RunningServe.start()
        defer { serve.process.kill() }
        let (folder, tokenServer, fleet) = (serve.folder, serve.tokenServer, serve.fleet)
        let admin = try serve.adminAuthorization()
        #expect(!serve.announcement.contains(admin.dropFirst("Bearer ".count)))

        // The operator: accounts and assignments with the admin key, resources with a server token.
        for (username, role) in [("alice", "driver"), ("bob", "consumer")] {
            let created = try await tokenServer.send(
                .POST, "/v1/admin/accounts", authorization: admin,
                body: #"{"username":"\#(username)","password":"\#(Self.password)","role":"\#(role)"}"#)
            try #require(created.status == 201 || created.status == 200, "\(created)")
        }
        try #require(
            try await tokenServer.send(
                .PUT, "/v1/admin/vehicles/vehicle-1/driver", authorization: admin, body: #"{"username":"alice"}"#
            ).status == 200)
        try #require(
            try await tokenServer.send(
                .PUT, "/v1/admin/trips/trip-1/consumer", authorization: admin, body: #"{"username":"bob"}"#
            ).status == 200)
        let server = try TokenMinter(key: ServiceAccountKey(contentsOf: "\(folder)/keys/server.json")).mint(.server)
            .token
        let p = "/v1/providers/\(Self.project)"
        for vehicle in ["vehicle-1", "vehicle-2"] {
            try #require(
                try await fleet.send(
                    .POST, "\(p)/vehicles?vehicleId=\(vehicle)", token: server, body: Fixtures.vehicleBody()
                ).status == 200)
        }
        for (trip, vehicle) in [("trip-1", "vehicle-1"), ("trip-2", "vehicle-2")] {
            try #require(
                try await fleet.send(
                    .POST, "\(p)/trips?tripId=\(trip)", token: server, body: Fixtures.tripBody(vehicleID: vehicle)
                ).status == 200)
        }

        // The apps: log in, fetch scoped tokens.
        let alice = try await Self.token(from: tokenServer, username: "alice", path: "/v1/tokens/driver/vehicle-1")
        let bob = try await Self.token(from: tokenServer, username: "bob", path: "/v1/tokens/consumer/trip-1")
        let aliceSession = try await Self.session(tokenServer, "alice")
        #expect(try await tokenServer.send(.GET, "/v1/tokens/driver/vehicle-2", token: aliceSession).status == 403)

        let move = Fixtures.locationUpdate(latitude: 52.5, longitude: 13.4)
        let expectations: [(String, HTTPMethod, String, String?, Int)] = [
            (alice, .PUT, "\(p)/vehicles/vehicle-1?updateMask=lastLocation", move, 200),
            (alice, .GET, "\(p)/vehicles/vehicle-1", nil, 200),
            (alice, .GET, "\(p)/trips/trip-1", nil, 200),
            (alice, .PUT, "\(p)/vehicles/vehicle-2?updateMask=lastLocation", move, 403),
            (alice, .GET, "\(p)/vehicles/vehicle-2", nil, 403),
            (alice, .GET, "\(p)/trips/trip-2", nil, 403),
            (alice, .POST, "\(p)/vehicles?vehicleId=vehicle-3", Fixtures.vehicleBody(), 403),
            (alice, .PUT, "\(p)/vehicles/vehicle-1?updateMask=attributes", #"{"attributes":[]}"#, 403),
            (bob, .GET, "\(p)/trips/trip-1", nil, 200),
            (bob, .GET, "\(p)/trips/trip-2", nil, 403),
            (bob, .GET, "\(p)/vehicles/vehicle-1", nil, 403),
            (bob, .PUT, "\(p)/vehicles/vehicle-1?updateMask=lastLocation", move, 403),
            (bob, .PUT, "\(p)/trips/trip-1?updateMask=tripStatus", #"{"tripStatus":"CANCELED"}"#, 403),
        ]
        for (token, method, path, body, status) in expectations {
            let response = try await fleet.send(method, path, token: token, body: body)
            #expect(response.status == status, "\(token == alice ? "alice" : "bob") \(method) \(path): \(response)")
        }
        let moved = try await fleet.send(.GET, "\(p)/vehicles/vehicle-1", token: server)
        #expect(moved.value("lastLocation.location.latitude") as? Double == 52.5)
        let untouched = try await fleet.send(.GET, "\(p)/vehicles/vehicle-2", token: server)
        #expect(untouched.value("lastLocation") == nil)
    }

    @Test(
        "serve --keyless: the Google stand-in on the port asked for; a driver token signed through its IAM moves the vehicle"
    )
    func keylessWithChosenStandInPort() async throws {
        let standInPort = try await ClosedPort.with { $0 }  // free again once it returns
        let serve = try await RunningServe.start(["--keyless", "--stand-in-port", String(standInPort)])
        defer { serve.process.kill() }
        let (folder, tokenServer, fleet, google) = (
            serve.folder, serve.tokenServer, serve.fleet, TestClient(port: standInPort)
        )
        #expect(serve.announcement.contains("Google stand-in http://127.0.0.1:\(standInPort)"), "\(serve.announcement)")
        let email = try await google.send(
            .GET, "/computeMetadata/v1/instance/service-accounts/default/email", authorization: nil,
            headers: [("Metadata-Flavor", "Google")])
        #expect(email.status == 200 && email.body.contains("@"), "\(email)")

        let admin = try serve.adminAuthorization()
        try #require(
            try await tokenServer.send(
                .POST, "/v1/admin/accounts", authorization: admin,
                body: #"{"username":"alice","password":"\#(Self.password)","role":"driver"}"#
            ).status == 201)
        try #require(
            try await tokenServer.send(
                .PUT, "/v1/admin/vehicles/vehicle-1/driver", authorization: admin, body: #"{"username":"alice"}"#
            ).status == 200)
        let server = try TokenMinter(key: ServiceAccountKey(contentsOf: "\(folder)/keys/server.json")).mint(.server)
            .token
        let p = "/v1/providers/\(Self.project)"
        try #require(
            try await fleet.send(
                .POST, "\(p)/vehicles?vehicleId=vehicle-1", token: server, body: Fixtures.vehicleBody()
            ).status == 200)

        let alice = try await Self.token(from: tokenServer, username: "alice", path: "/v1/tokens/driver/vehicle-1")
        // Signed by the stand-in's IAM as the driver account: no driver key file was made.
        #expect(try TokenInspection(token: alice).claims?.issuer.hasPrefix("fe-driver@") == true)
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/keys/driver.json"))
        let moved = try await fleet.send(
            .PUT, "\(p)/vehicles/vehicle-1?updateMask=lastLocation", token: alice,
            body: Fixtures.locationUpdate(latitude: 52.5, longitude: 13.4))
        #expect(moved.status == 200, "\(moved)")
    }

    /// `fleetauth serve` on free ports and a fresh data directory, up once its banner is out.
    struct RunningServe {
        let process: ChildProcess
        let folder: String
        /// Everything the banner printed.
        let announcement: String
        let tokenServer: TestClient
        let fleet: TestClient

        /// Starts `fleetauth serve` for ``ServeEndToEndTests/project`` with `extra` arguments.
        static func start(_ extra: [String] = []) async throws -> RunningServe {
            let folder = try TestEngine.makeFolder()
            let process = try ChildProcess(
                [try ChildProcess.fleetauth] + [
                    "serve", "--data-dir", folder, "--project", project, "--token-server-port", "0",
                    "--fleet-engine-port", "0", "--grpc-port", "0",
                ] + extra, standardError: .discarded)
            do {
                let announcement = try await process.output(containing: "3. Send")
                // The token server's, the engine's and the gRPC door's, in the banner's order.
                var ports: [Int] = []
                for port in ChildProcess.loopbackPorts(in: announcement) where !ports.contains(port) {
                    ports.append(port)
                }
                try #require(ports.count >= 3, "\(announcement)")
                return RunningServe(
                    process: process, folder: folder, announcement: announcement,
                    tokenServer: TestClient(port: ports[0]), fleet: TestClient(port: ports[1]))
            } catch {
                process.kill()
                throw error
            }
        }

        /// `Bearer <admin key>`, the key read from the data directory.
        func adminAuthorization() throws -> String {
            "Bearer "
                + (try String(contentsOfFile: "\(folder)/admin-key", encoding: .utf8)).trimmingCharacters(
                    in: .whitespacesAndNewlines)
        }
    }

    static func session(_ tokenServer: TestClient, _ username: String) async throws -> String {
        let login = try await tokenServer.send(
            .POST, "/v1/sessions", authorization: nil, body: #"{"username":"\#(username)","password":"\#(password)"}"#)
        return try #require(login.json["sessionToken"] as? String, "\(login.status)")
    }

    static func token(from tokenServer: TestClient, username: String, path: String) async throws -> String {
        let response = try await tokenServer.send(.GET, path, token: try await session(tokenServer, username))
        return try #require(response.json["token"] as? String, "\(response.status)")
    }
}
