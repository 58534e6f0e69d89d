import FleetAuthLocking
import FleetAuthServerHTTP
import FleetTokens
import Foundation
import Hummingbird
import LocalFleetEngine
import Logging
import ServiceLifecycle
import Synchronization
import TestSupport
import Testing

/// An engine that trusts a JWKS URL: keys are fetched from start (a token that comes first waits for that fetch), again when a token names an
/// unknown key or account (at most once per interval), and removed keys stop being trusted.
@Suite("JWKS URL trust")
struct JWKSRefreshTests {
    /// The JWKS document a test serves, how it answers, and how often it was fetched.
    final class Publisher: Sendable {
        /// How the JWKS URL answers a fetch.
        enum Answer: Sendable {
            /// The document.
            case document
            /// 503, as a JWKS host that is down behind its load balancer.
            case unavailable
            /// 200 with a body that is no JWKS.
            case garbage
            /// Nothing for a minute (or until the test ends), longer than the engine waits.
            case silence
            /// 503 after 500 ms: a fetch that is under way when the test's next request comes.
            case slowlyUnavailable
        }

        let document = Locked(Data())
        let answer = Locked(Answer.document)
        let fetches = Atomic(0)
        /// When the first fetch arrived.
        let firstFetch = Locked<ContinuousClock.Instant?>(nil)

        func publish(_ accounts: [(ServiceAccountKey, FleetEngineRole)]) throws {
            let set = try JSONWebKeySet(publishing: accounts.map { (key: $0.0, role: $0.1) })
            document.withLock { $0 = set.jsonRepresentation() }
        }
    }

    /// Serves `publisher`'s document at `/jwks.json` on a free port while `body` runs.
    static func withJWKSServer<Result: Sendable>(
        _ publisher: Publisher, _ body: @Sendable (String) async throws -> Result
    ) async throws -> Result {
        let router = Router()
        router.get("jwks.json") { _, _ in
            publisher.fetches.add(1, ordering: .relaxed)
            publisher.firstFetch.withLock { $0 = $0 ?? .now }
            switch publisher.answer.withLock({ $0 }) {
            case .document:
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(data: publisher.document.withLock { $0 })))
            case .unavailable:
                return Response(status: .serviceUnavailable)
            case .slowlyUnavailable:
                try await Task.sleep(for: .milliseconds(500))
                return Response(status: .serviceUnavailable)
            case .garbage:
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: #"{"keys":[{"kty":"RSA","n":"%%%"}]"#)))
            case .silence:
                // Silent for 60 s, or until the test is over and the server shuts down.
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(60)) }
                return Response(status: .noContent)
            }
        }
        return try await RunningService.with(
            logger: Logger(label: "jwks-publisher"),
            { onStarted in
                Application(
                    router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: { await onStarted($0.localAddress!.port!) })
            }
        ) { port in
            try await body("http://127.0.0.1:\(port)/jwks.json")
        }
    }

    /// Serves a JWKS of the server key and runs an engine that trusts only that URL, fetching
    /// it at most once per `interval`.
    static func withJWKSEngine(interval: Duration, _ body: @Sendable (TestClient, Publisher) async throws -> Void)
        async throws
    {
        let publisher = Publisher()
        try publisher.publish([(TestKeys.server, .serviceSuperUser)])
        try await withJWKSServer(publisher) { url in
            try await TestEngine.with(configure: { configuration in
                configuration.trustedAccounts = []
                configuration.jwksURL = url
                configuration.jwksMinimumRefreshInterval = interval
            }) { client in
                try await body(client, publisher)
            }
        }
    }

    static func getVehicle(_ client: TestClient, token: String) async throws -> TestResponse {
        try await client.send(.GET, "\(Fixtures.provider)/vehicles/none", token: token)
    }

    @Test(
        "an engine started before its JWKS URL answers waits for the next fetch for the first tokens, and accepts them; also a token that comes while the failing first fetch is under way",
        arguments: [Publisher.Answer.unavailable, .slowlyUnavailable])
    func aSourceThatNeverAnsweredIsWaitedFor(firstAnswer: Publisher.Answer) async throws {
        let publisher = Publisher()
        try publisher.publish([(TestKeys.server, .serviceSuperUser)])
        publisher.answer.withLock { $0 = firstAnswer }
        try await Self.withJWKSServer(publisher) { url in
            try await TestEngine.with(configure: { configuration in
                configuration.trustedAccounts = []
                configuration.jwksURL = url
                configuration.jwksMinimumRefreshInterval = .milliseconds(500)
            }) { client in
                while publisher.fetches.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(10)) }
                // The start's fetch failed less than the interval ago; the URL answers now.
                publisher.answer.withLock { $0 = .document }
                let answer = try await Self.getVehicle(client, token: Tokens.server)
                #expect(answer.status == 404, "the first token waited for the next fetch and was accepted: \(answer)")
            }
        }
    }

    @Test func newKeysAreFetchedWhenATokenNamesThemAndRemovedKeysStopWorking() async throws {
        try await Self.withJWKSEngine(interval: .seconds(1)) { client, publisher in
            #expect(try await Self.getVehicle(client, token: Tokens.server).status == 404)
            // Fetched at start, the first token joining that fetch; beside the whole suite the
            // first request may come after the interval, find the keys stale and fetch again.
            let first = publisher.fetches.load(ordering: .relaxed)
            #expect((1...2).contains(first), "fetched at start, and at most once more for the first request")

            // A driver account the JWKS does not have yet, once the interval allows a fetch: the
            // request fetches, and is refused when the account is not there either. (An unknown
            // account does not wait for the next fetch; only an unknown key id of a known one does.)
            try await Task.sleep(for: .milliseconds(1_100))
            let driverToken = Tokens.driver("none")
            let early = try await Self.getVehicle(client, token: driverToken)
            #expect(early.status == 401 && early.errorMessage.contains("not a trusted service account"), "\(early)")
            #expect(publisher.fetches.load(ordering: .relaxed) == first + 1, "one fetch, the interval being over")

            try publisher.publish([(TestKeys.server, .serviceSuperUser), (TestKeys.driver, .driverSDKUser)])
            try await Task.sleep(for: .milliseconds(1_100))
            let late = try await Self.getVehicle(client, token: driverToken)
            #expect(late.status == 404, "the new key was fetched: \(late)")

            // The server key is withdrawn; the next unknown key triggers a fetch that drops it.
            try publisher.publish([(TestKeys.driver, .driverSDKUser)])
            try await Task.sleep(for: .milliseconds(1_100))
            _ = try await Self.getVehicle(client, token: Tokens.consumer("t"))
            let withdrawn = try await Self.getVehicle(client, token: Tokens.server)
            #expect(withdrawn.status == 401, "a withdrawn key still works: \(withdrawn)")
        }
    }

    /// A location update is answered on the event loop when its token's key is at hand; one
    /// whose key must first be fetched is answered once the fetch brings it, through either door
    /// (REST's route in a task, gRPC through grpc-swift's server).
    @Test(arguments: DurabilityTests.Door.allCases)
    func aLocationUpdateWhoseKeyIsNotAtHandIsAnsweredOnceItIsFetched(through door: DurabilityTests.Door) async throws {
        try await Self.withJWKSEngine(interval: .milliseconds(100)) { client, publisher in
            let created = try await client.send(
                .POST, "\(Fixtures.provider)/vehicles?vehicleId=fetched", token: Tokens.server,
                body: Fixtures.vehicleBody())
            try #require(created.status == 200, "\(created)")
            // Fetched at start; beside the whole suite the creation may come after the interval
            // and fetch again, so the driver's fetch is counted from here.
            let beforeDriver = publisher.fetches.load(ordering: .relaxed)
            try publisher.publish([(TestKeys.server, .serviceSuperUser), (TestKeys.driver, .driverSDKUser)])
            try await Task.sleep(for: .milliseconds(150))
            let moved = try await GRPCTestClient.with(client) { grpc in
                await DurabilityTests.move(
                    "fetched", to: 1, token: Tokens.driver("fetched"), through: door, client, grpc)
            }
            #expect(moved, "the update was not acknowledged")
            #expect(publisher.fetches.load(ordering: .relaxed) == beforeDriver + 1, "one fetch for the driver's key")
            let shown = try await client.send(.GET, "\(Fixtures.provider)/vehicles/fetched", token: Tokens.server)
            #expect(shown.value("lastLocation.location.latitude") as? Double == 1, "\(shown)")
        }
    }

    /// Requests with made-up key ids, all at once, with the keys at hand: they share the fetch
    /// the interval allows (waiting for it, as a rotation's new key would), and each is refused;
    /// at most one fetch per interval.
    @Test func aFloodOfUnknownKeysCausesOneFetchPerInterval() async throws {
        try await Self.withJWKSEngine(interval: .seconds(1)) { client, publisher in
            #expect(try await Self.getVehicle(client, token: Tokens.server).status == 404, "the keys are at hand")
            let before = publisher.fetches.load(ordering: .relaxed)
            let start = ContinuousClock.now
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<24 {
                    group.addTask {
                        var header = Forge.header(for: TestKeys.server)
                        header["kid"] = "made-up-\(index)"
                        let token = Forge.token(
                            header: header, payload: Forge.driverPayload(for: TestKeys.server),
                            signedBy: TestKeys.server)
                        return try await Self.getVehicle(client, token: token).status
                    }
                }
                for try await status in group { #expect(status == 401) }
            }
            let intervals = Int((ContinuousClock.now - start).timeInterval.rounded(.up))
            let fetches = publisher.fetches.load(ordering: .relaxed) - before
            #expect(fetches <= intervals + 1, "\(fetches) fetches in \(intervals) s")
        }
    }
}
