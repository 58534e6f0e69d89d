import FleetEngineClient
import FleetTokenProvider
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which HTTP client the demo's simulated apps use.
package enum DemoHTTPClient: String, CaseIterable, Sendable {
    /// One AsyncHTTPClient shared by every app: carries a thousand apps in one process.
    case asyncHTTPClient = "async-http-client"
    /// A `URLSession` of each app's own, as on its own phone. On Linux,
    /// swift-corelibs-foundation carries about 200 drivers and their consumers in one process.
    case urlSession = "urlsession"
}

/// How the demo's simulated apps reach the servers: one transport for setting up and for the
/// intruder, a transport for each app (the shared client's, or a session of its own), and the
/// two servers' addresses.
struct DemoNetwork: Sendable {
    /// The transport for enrolment, logins and the intruder.
    let transport: any HTTPTransport
    let tokenServer: URL
    let fleetEngine: URL
    let project: String
    private let sharedClient: AsyncHTTPClientTransport?

    init(httpClient: DemoHTTPClient, tokenServerPort: Int, fleetEnginePort: Int, project: String) {
        switch httpClient {
        case .asyncHTTPClient:
            let shared = AsyncHTTPClientTransport(connectionsPerServer: 64)
            sharedClient = shared
            transport = shared
        case .urlSession:
            sharedClient = nil
            transport = URLSessionTransport(session: Self.newSession(connections: 16))
        }
        tokenServer = URL(string: "http://127.0.0.1:\(tokenServerPort)")!
        fleetEngine = URL(string: "http://127.0.0.1:\(fleetEnginePort)")!
        self.project = project
    }

    /// Closes the shared client's connections.
    func shutdown() async {
        await sharedClient?.shutdown()
    }

    /// Runs `body` with the network of `servers` for the apps `settings` describe, closing it
    /// after (also when `body` throws).
    static func using<Result>(
        _ settings: DemoSettings, to servers: LocalFleet, _ body: (DemoNetwork) async throws -> Result
    ) async throws -> Result {
        let network = DemoNetwork(
            httpClient: settings.httpClient, tokenServerPort: await servers.tokenServerPort,
            fleetEnginePort: await servers.fleetEnginePort,
            project: DemoRun.project)
        do {
            let result = try await body(network)
            await network.shutdown()
            return result
        } catch {
            await network.shutdown()
            throw error
        }
    }

    /// The transport of one more app: the shared client, or a URL session of its own.
    private func appTransport() -> any HTTPTransport {
        sharedClient ?? URLSessionTransport(session: Self.newSession(connections: 2))
    }

    /// A session with room for `connections` at once.
    private static func newSession(connections: Int) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = connections
        return URLSession(configuration: configuration)
    }

    /// Logs `username` in and returns the session token.
    func logIn(_ username: String) async throws -> String {
        var request = URLRequest(url: tokenServer.appendingPathComponent("v1/sessions"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(["username": username, "password": DemoEnrollment.password])
        let (body, response) = try await transport.send(request, timeout: Self.timeout)
        struct Session: Decodable { let sessionToken: String }
        guard response.statusCode == 201, let session = try? JSONDecoder().decode(Session.self, from: body) else {
            throw DemoFailure("\(username) could not log in")
        }
        return session.sessionToken
    }

    /// How long the apps wait for an answer.
    static let timeout = Duration.seconds(15)

    /// The id each kind of app's tokens are asked for by, as a token URL's placeholder.
    static let tokenPlaceholders = [
        "driver": "{vehicleId}", "consumer": "{tripId}", "delivery-driver": "{deliveryVehicleId}",
        "delivery-consumer": "{trackingId}",
    ]

    /// An app's Fleet Engine client: tokens of `kind` (`driver`, `consumer`, `delivery-driver`,
    /// `delivery-consumer`) fetched from the token server with `session` and cached; provider
    /// events go to `stats`.
    func client(kind: String, session sessionToken: String, stats: DemoStats) throws -> FleetEngineClient {
        let transport = appTransport()
        guard let placeholder = Self.tokenPlaceholders[kind] else {
            throw DemoFailure("no token route for \(kind) apps")
        }
        let fetcher = HTTPTokenFetcher(
            urlTemplate: try TokenURLTemplate(tokenServer.absoluteString + "/v1/tokens/\(kind)/\(placeholder)"),
            requestTimeout: Self.timeout,
            transport: transport,
            authorizeRequest: { $0.setValue("Bearer \(sessionToken)", forHTTPHeaderField: "Authorization") })
        let tokens = CachingTokenProvider(fetcher: fetcher, onEvent: { stats.record($0, app: kind) })
        return FleetEngineClient(
            baseURL: fleetEngine, providerID: project, tokens: tokens, requestTimeout: Self.timeout,
            transport: transport)
    }
}

/// A driver app: moves along its route, reports each location through a ``VehicleReporter``
/// every `interval`, and moves its trip on (to pickup, to drop-off, complete).
struct DemoDriver: Sendable {
    let index: Int
    let client: FleetEngineClient
    let stats: DemoStats

    var vehicleID: String { "vehicle-\(index)" }

    /// Drives for `duration`; returns the last location Fleet Engine acknowledged.
    func drive(for duration: Duration, every interval: Duration) async throws -> VehicleLocation? {
        let route = DemoRoute(index: index)
        let reporter = VehicleReporter(vehicleID: vehicleID, client: client)
        let acknowledged = Task {
            var last: VehicleLocation?
            for await event in reporter.events {
                stats.record(event)
                if case .accepted(let location, _) = event { last = location }
            }
            return last
        }
        let trip = "trip-\(index)", context = AuthorizationContext(vehicleID: vehicleID)
        try await move(trip, to: .enrouteToPickup, as: context)
        let start = ContinuousClock.now
        var sentDropoff = false
        while ContinuousClock.now - start < duration {
            let fraction = (ContinuousClock.now - start) / duration
            stats.locationReported()
            await reporter.report(
                VehicleLocation(
                    location: route.point(at: fraction), latlngAccuracy: 5, heading: route.heading(at: fraction),
                    speed: 9, updateTime: Date()))
            if fraction >= 0.5, !sentDropoff {
                sentDropoff = true
                try await move(trip, to: .enrouteToDropoff, as: context)
            }
            try await Task.sleep(for: interval)
        }
        await reporter.finish()
        try await move(trip, to: .complete, as: context)
        return await acknowledged.value
    }

    /// Sets the trip's status, trying again every half second through a passing failure.
    private func move(_ trip: String, to status: Trip.Status, as context: AuthorizationContext) async throws {
        for attempt in 1... {
            do {
                _ = try await client.updateStatus(status, ofTrip: trip, as: context)
                return
            } catch let error as FleetEngineError where error.isTransient && attempt < 40 {
                try await Task.sleep(for: .milliseconds(500))
            }
        }
    }
}

/// A consumer app following its trip with a ``TripFollower`` until the trip is complete.
struct DemoConsumer: Sendable {
    let index: Int
    let client: FleetEngineClient
    let stats: DemoStats

    func follow(every interval: Duration) async {
        do {
            for try await trip in TripFollower(tripID: "trip-\(index)", client: client, interval: interval) {
                stats.tripRead(trip)
            }
        } catch is CancellationError {
        } catch {
            stats.followFailed(error)
        }
    }
}
