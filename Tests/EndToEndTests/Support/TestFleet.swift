import FleetDemo
import FleetEngineClient
import FleetTokenProvider
import FleetTokens
import Foundation
import LocalFleetEngine
import Logging
import TestSupport
import Testing
import TokenServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A fleet's servers, both real (``LocalFleet``, as `fleetauth demo` runs them), on loopback
/// ports, judging tokens by one manual clock that the test moves; either can be stopped and
/// started again on its port.
final class TestFleet: Sendable {
    static let project = TestKeys.project
    static let password = "a-password-for-tests"

    /// The time of both servers (and of the apps' providers unless a test gives them another).
    let clock: ManualTokenClock
    private let servers: LocalFleet

    private init(clock: ManualTokenClock, servers: LocalFleet) {
        self.clock = clock
        self.servers = servers
    }

    /// Starts both servers in a new temporary folder, with the shared test keys; tokens live
    /// `tokenLifetime`, and a session may ask for `tokenRequestsPerMinute` of them.
    static func start(tokenLifetime: Duration = .seconds(30), tokenRequestsPerMinute: Int = 60) async throws
        -> TestFleet
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-client-\(UUID().uuidString)")
            .path
        let clock = ManualTokenClock(now: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        let options = TokenServerOptions(
            tokenLifetime: tokenLifetime, bcryptCost: 4, tokenRequestsPerMinute: tokenRequestsPerMinute,
            now: { clock.now })
        try TestKeys.install(
            in: TokenServerConfiguration(dataDirectory: folder, projectID: project, options: options).keysDirectory)
        let servers = try await LocalFleet.start(
            dataDirectory: folder, project: project, options: options, keyless: false,
            logger: Logger(label: "client-tests") { _ in SwiftLogNoOpLogHandler() })
        return TestFleet(clock: clock, servers: servers)
    }

    /// The token server's signing keys.
    var keyRing: SigningKeyRing {
        get async { await servers.tokenServer.keyRing }
    }

    /// Stops the token server: apps' fetches meet a refused connection.
    func stopTokenServer() async {
        await servers.stopTokenServer()
    }

    /// Starts the token server again on its port.
    func startTokenServer() async throws {
        try await servers.restartTokenServer()
    }

    /// Stops the local Fleet Engine: apps' calls meet a refused connection.
    func stopFleetEngine() async {
        await servers.stopFleetEngine()
    }

    /// Starts the local Fleet Engine again on its port.
    func startFleetEngine() async throws {
        try await servers.restartFleetEngine()
    }

    /// Where each vehicle's location is saved, as step numbers, read from the Fleet Engine's
    /// database.
    func savedSteps(of drivers: [TestDriver]) async throws -> [Int?] {
        let snapshot = try await SQLEngineStore(database: servers.engineDatabase).load(provider: Self.project)
        return drivers.map { driver -> Int? in
            guard let location = snapshot.vehicles[driver.vehicleID]?.lastLocation, location.hasLocation else {
                return nil
            }
            return Int(((location.location.latitude - 52) * 1000).rounded())
        }
    }

    /// Stops both servers.
    func stop() async {
        await servers.stop()
    }

    /// A client with server tokens (the fleet operator's backend).
    var operatorClient: FleetEngineClient {
        get async throws {
            try await client(tokens: ServerTokens(key: TestKeys.server, clock: clock))
        }
    }

    /// A client of the local Fleet Engine with `tokens`.
    func client(tokens: any AuthorizationTokenProvider, transport: any HTTPTransport = URLSessionTransport()) async
        -> FleetEngineClient
    {
        FleetEngineClient(
            baseURL: URL(string: "http://127.0.0.1:\(await servers.fleetEnginePort)")!, providerID: Self.project,
            tokens: tokens, transport: transport)
    }

    /// The token server's account administration, on the fleet's clock.
    var administration: AccountAdministration {
        get async {
            AccountAdministration(
                store: await servers.tokenServer.store, hasher: PasswordHasher(cost: 4), now: { [clock] in clock.now })
        }
    }

    /// Creates `vehicle-i` and `trip-i` (on it) in Fleet Engine and accounts `driver-i` and
    /// `consumer-i` assigned to them, for each `i` in `indices`.
    func enroll(_ indices: Range<Int>) async throws {
        let administration = await administration
        let fleet = try await operatorClient
        for index in indices {
            _ = try await administration.createAccount(
                username: "driver-\(index)", password: Self.password, roleName: "driver")
            _ = try await administration.createAccount(
                username: "consumer-\(index)", password: Self.password, roleName: "consumer")
            _ = try await administration.assign(Resource(.vehicle, id: "vehicle-\(index)"), to: "driver-\(index)")
            _ = try await administration.assign(Resource(.trip, id: "trip-\(index)"), to: "consumer-\(index)")
            _ = try await fleet.createVehicle(Vehicle(), id: "vehicle-\(index)")
            let pickup = Trip.Terminal(point: LatLng(latitude: 52.52, longitude: 13.405))
            _ = try await fleet.createTrip(
                Trip(vehicleId: "vehicle-\(index)", pickupPoint: pickup), id: "trip-\(index)")
        }
    }

    /// Sends `body` to the local Fleet Engine's `POST /v1/providers/{project}/{path}` with
    /// `token`, as a backend without a client for the call would; fails unless it is 200.
    func post(_ path: String, token: String, body: String) async throws {
        var request = URLRequest(
            url: URL(string: "http://127.0.0.1:\(await servers.fleetEnginePort)/v1/providers/\(Self.project)/\(path)")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(body.utf8)
        let (answer, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw TestFailure("POST \(path): \(String(decoding: answer, as: UTF8.self))")
        }
    }

    /// The token server's `GET /v1/tokens/{path}` URL.
    func tokenURL(_ path: String) async -> String {
        "http://127.0.0.1:\(await servers.tokenServerPort)/v1/tokens/\(path)"
    }

    /// The token server's key set, `/.well-known/jwks.json`.
    var jwksURL: String {
        get async { "http://127.0.0.1:\(await servers.tokenServerPort)/.well-known/jwks.json" }
    }

    /// Logs `username` in over HTTP and returns the session token.
    func logIn(_ username: String) async throws -> String {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(await servers.tokenServerPort)/v1/sessions")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(["username": username, "password": Self.password])
        let (body, _) = try await URLSession.shared.data(for: request)
        struct Session: Decodable { let sessionToken: String }
        return try JSONDecoder().decode(Session.self, from: body).sessionToken
    }

    /// Logs `user` (`driver-i` or `consumer-i`) in and gives it what its app has: a client
    /// whose caching provider fetches from the real token endpoint (for the call's vehicle or
    /// trip, or for the fixed id `template` when given), with its fetches counted and its
    /// events logged. `transport` carries its Fleet Engine calls, `tokenTransport` its fetches
    /// (by default with answers dated by the servers' manual clock, as their own clock would).
    func app(
        _ user: String,
        clock: (any TokenClock)? = nil,
        template: String? = nil,
        transport: any HTTPTransport = URLSessionTransport(),
        tokenTransport: (any HTTPTransport)? = nil
    ) async throws -> TestApp {
        let session = try await logIn(user)
        // The token route of the user's role (`driver-0` → driver, `delivery-consumer-0` →
        // delivery-consumer) and the id its tokens are asked for by.
        let routes = [
            ("delivery-trusted-driver", "delivery-driver", "{deliveryVehicleId}"),
            ("delivery-driver", "delivery-driver", "{deliveryVehicleId}"),
            ("delivery-consumer", "delivery-consumer", "{trackingId}"), ("driver", "driver", "{vehicleId}"),
            ("consumer", "consumer", "{tripId}"),
        ]
        guard let (_, kind, placeholder) = routes.first(where: { user.hasPrefix($0.0 + "-") }) else {
            throw TestFailure("no token route for \(user)")
        }
        let url = await tokenURL("\(kind)/\(template ?? placeholder)")
        let fetcher = CountingFetcher(
            HTTPTokenFetcher(
                urlTemplate: try TokenURLTemplate(url),
                retryPolicy: RetryPolicy(
                    maxAttempts: 3, initialBackoff: .milliseconds(10), maxBackoff: .milliseconds(50)),
                transport: tokenTransport ?? ServerClockTransport(clock: self.clock),
                authorizeRequest: { $0.setValue("Bearer \(session)", forHTTPHeaderField: "Authorization") }))
        let log = EventLog()
        let provider = CachingTokenProvider(fetcher: fetcher, clock: clock ?? self.clock, onEvent: { log.record($0) })
        return TestApp(client: await client(tokens: provider, transport: transport), fetcher: fetcher, log: log)
    }
}

/// One app: its Fleet Engine client, and what its token provider did.
struct TestApp: Sendable {
    let client: FleetEngineClient
    let fetcher: CountingFetcher
    let log: EventLog
}

/// Tokens minted on the spot, as the fleet operator's backend has them: server tokens by
/// default, or any kind `kind` makes of the call's context.
struct ServerTokens: AuthorizationTokenProvider {
    let minter: TokenMinter
    let kind: @Sendable (AuthorizationContext) -> TokenKind

    init(
        key: ServiceAccountKey, clock: any TokenClock,
        kind: @escaping @Sendable (AuthorizationContext) -> TokenKind = { _ in .server }
    ) throws {
        minter = try TokenMinter(key: key, defaultLifetime: .seconds(3600), now: { clock.now })
        self.kind = kind
    }

    func token(for context: AuthorizationContext) async throws -> String {
        try minter.mint(kind(context)).token
    }

    func invalidate(_ context: AuthorizationContext) async {}
}
