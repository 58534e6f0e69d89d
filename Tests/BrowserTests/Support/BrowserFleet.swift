import FleetAuthServerHTTP
import FleetDemo
import FleetEngineClient
import FleetTokenProvider
import FleetTokens
import Foundation
import TestSupport
import TokenServer

/// Both servers, real and in this process (``LocalFleet``), for pages in a browser: 30-second
/// tokens on the real clock (a browser's time cannot be moved from outside), the given origins
/// allowed, every log line recorded so that tests can look for secrets in them.
final class BrowserFleet: Sendable {
    static let password = "a-password-for-browsers"

    let servers: LocalFleet
    /// Both servers' metrics.
    let metrics: PrometheusMetrics
    /// Everything both servers logged.
    let logs: LogRecorder
    /// `http://127.0.0.1:PORT` of the token server.
    let tokenServer: String
    /// `http://127.0.0.1:PORT` of the local Fleet Engine.
    let fleetEngine: String

    private init(
        servers: LocalFleet, metrics: PrometheusMetrics, logs: LogRecorder, tokenServer: String, fleetEngine: String
    ) {
        self.servers = servers
        self.metrics = metrics
        self.logs = logs
        self.tokenServer = tokenServer
        self.fleetEngine = fleetEngine
    }

    /// Starts both servers in a new temporary folder with the shared test keys, allowing pages
    /// of `origins`.
    static func start(allowing origins: [String], tokenLifetime: Duration = .seconds(30)) async throws -> BrowserFleet {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("browser-\(UUID().uuidString)").path
        let options = TokenServerOptions(
            tokenLifetime: tokenLifetime, bcryptCost: 4, allowedOrigins: try AllowedOrigins(parsing: origins))
        try TestKeys.install(
            in: TokenServerConfiguration(dataDirectory: folder, projectID: TestKeys.project, options: options)
                .keysDirectory)
        let logs = LogRecorder()
        let servers = try await LocalFleet.start(
            dataDirectory: folder, project: TestKeys.project, options: options, keyless: false, logger: logs.logger)
        return BrowserFleet(
            servers: servers, metrics: await servers.metrics, logs: logs,
            tokenServer: "http://127.0.0.1:\(await servers.tokenServerPort)",
            fleetEngine: "http://127.0.0.1:\(await servers.fleetEnginePort)")
    }

    /// Creates `vehicle` at `position` and `trip` on it in Fleet Engine, and a consumer account
    /// `rider` assigned to the trip.
    func enroll(rider: String, trip: String, vehicle: String, at position: LatLng) async throws {
        let administration = AccountAdministration(
            store: await servers.tokenServer.store, hasher: PasswordHasher(cost: 4), now: { Date() })
        _ = try await administration.createAccount(username: rider, password: Self.password, roleName: "consumer")
        _ = try await administration.assign(Resource(.trip, id: trip), to: rider)
        let fleet = try operatorClient
        _ = try await fleet.createVehicle(Vehicle(lastLocation: VehicleLocation(location: position)), id: vehicle)
        _ = try await fleet.createTrip(Trip(vehicleId: vehicle, pickupPoint: Trip.Terminal(point: position)), id: trip)
    }

    /// Moves `vehicle` to `position`, as its driver's app would.
    func move(_ vehicle: String, to position: LatLng) async throws {
        _ = try await operatorClient.updateLocation(VehicleLocation(location: position), ofVehicle: vehicle)
    }

    /// How many tokens of `kind` (`consumer`, `driver`, …) the token server has issued.
    func issuedTokens(_ kind: String) -> Int {
        metric("fleetauth_tokens_issued_total{kind=\"\(kind)\"}")
    }

    /// How many token requests the token server refused for their session's limit.
    var limitedTokenRequests: Int { metric("fleetauth_token_requests_limited_total") }

    /// How many requests of pages of origins not allowed the token server has refused.
    var refusedOrigins: Int { metric("fleetauth_cors_refused_total") }

    /// Stops both servers.
    func stop() async {
        await servers.stop()
    }

    private func metric(_ series: String) -> Int {
        let exposition = metrics.exposition()
        for line in exposition.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Int(Double(line.dropFirst(series.count + 1)) ?? 0)
        }
        return 0
    }

    /// A client with server tokens, as the fleet operator's backend has.
    private var operatorClient: FleetEngineClient {
        get throws {
            let minter = try TokenMinter(key: TestKeys.server, defaultLifetime: .seconds(3600))
            return FleetEngineClient(
                baseURL: URL(string: fleetEngine)!, providerID: TestKeys.project, tokens: ServerTokens(minter: minter))
        }
    }
}

/// Server tokens minted on the spot.
struct ServerTokens: AuthorizationTokenProvider {
    let minter: TokenMinter
    /// The kind minted: on-demand (`server`) or delivery (`deliveryServer`) server tokens.
    var kind: TokenKind = .server

    func token(for context: AuthorizationContext) async throws -> String {
        try minter.mint(kind).token
    }

    func invalidate(_ context: AuthorizationContext) async {}
}
