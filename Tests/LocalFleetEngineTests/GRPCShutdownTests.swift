import CommandSupport
import FleetAuthServerHTTP
import FleetAuthServerStorage
import FleetEngineProtos
import Foundation
import GRPCCore
import Logging
import TestSupport
import Testing

@testable import LocalFleetEngine

/// The gRPC door on its own transport, stopping: a graceful shutdown takes no new connection
/// but lets the call under way finish and be answered.
@Suite("gRPC door: graceful shutdown")
struct GRPCShutdownTests {
    @Test func aGracefulShutdownLetsTheCallUnderWayFinish() async throws {
        let folder = try TestEngine.makeFolder()
        let logger = Logger(label: "test-grpc-shutdown")
        let database = try await ServerDatabase.open(.sqlite(path: folder + "/fleet-engine.sqlite"), logger: logger)
        let sql = SQLEngineStore(database: database)
        try await sql.prepare()
        let store = FaultyStore(sql)
        let (grpcPorts, grpcPortSink) = AsyncStream.makeStream(of: Int.self)
        let engine = try await RunningService.start(logger: logger) { onStarted in
            var configuration = LocalFleetEngineConfiguration(
                projectID: TestKeys.project, trustedAccounts: TestKeys.trustedAccounts, port: 0, grpcPort: 0,
                onGRPCStarted: { grpcPortSink.yield($0) })
            configuration.onStarted = onStarted
            return LocalFleetEngine(configuration: configuration, store: store, logger: logger)
        }
        let grpcPort = try #require(await grpcPorts.first { _ in true })
        let metadata = GRPCTestClient.bearer(Tokens.server)

        try await GRPCTestClient.with(TestClient(port: engine.port, grpcPort: grpcPort)) { grpc in
            _ = try await grpc.vehicles.createVehicle(
                .with {
                    $0.parent = GRPCDoorTests.parent; $0.vehicleID = "g-stopping";
                    $0.vehicle = try! GRPCDoorTests.vehicle()
                },
                metadata: metadata)
            store.hold()
            let update = Task {
                try await grpc.vehicles.updateVehicle(
                    .with {
                        $0.name = GRPCDoorTests.vehicleName("g-stopping")
                        $0.vehicle = .with {
                            $0.lastLocation = .with {
                                $0.location = .with {
                                    $0.latitude = 1.25; $0.longitude = 2.5
                                }
                            }
                        }
                        $0.updateMask = .with { $0.paths = ["last_location"] }
                    }, metadata: metadata)
            }
            try await waitUntil { store.waiting == 1 }
            let stopping = Task { await engine.stop() }

            // No new connection is taken once the shutdown has begun.
            try await waitUntil { (try? await RawHTTP.serverCloses(port: grpcPort, after: [], within: 1)) == nil }
            #expect(store.waiting == 1, "the call under way is still waiting for its commit")

            store.release()
            let updated = try await update.value
            #expect(updated.lastLocation.location.latitude == 1.25)
            await stopping.value
        }
        let saved = try await sql.load(provider: TestKeys.project).vehicles["g-stopping"]
        #expect(saved?.lastLocation.location.latitude == 1.25, "the answered update is saved")
        await database.shutdown()
    }

    /// A call whose caller resets its stream (here a health `Watch` the client cancels, on a
    /// connection it keeps open) is cancelled: the graceful shutdown after it, which waits for
    /// every call, ends.
    @Test(.timeLimit(.minutes(3)))
    func aCallWhoseCallerResetsItsStreamIsCancelled() async throws {
        try await Self.withHealthServer { server, serving, grpc in
            let watching = await Self.watchingStarted(grpc)
            watching.cancel()
            _ = await watching.result
            server.beginGracefulShutdown()
            try await serving.value
        }
    }

    /// A cancelled server (not a graceful shutdown) cancels its calls, and also those its open
    /// connections still start: a health `Watch` would otherwise wait until its caller hangs up.
    @Test(.timeLimit(.minutes(3)))
    func aCancelledServerCancelsEvenTheCallsStartedAfterwards() async throws {
        try await Self.withHealthServer { _, serving, grpc in
            let watching = await Self.watchingStarted(grpc)
            serving.cancel()
            let late = Task { try await Self.watch(grpc) }
            // The server ends although both callers still listen, and the call that came
            // after its cancellation ends as well instead of running on with no server.
            _ = try? await serving.value
            try await late.value
            watching.cancel()
        }
    }

    /// Runs `body` with a server of the health service alone on the door's transport, the task
    /// serving it, and a client connected to it.
    private static func withHealthServer(
        _ body: (GRPCServer<UnaryHTTP2ServerTransport>, Task<Void, any Error>, GRPCTestClient) async throws -> Void
    ) async throws {
        let transport = UnaryHTTP2ServerTransport(host: "127.0.0.1", port: 0, maximumRequestSize: 1 << 20)
        let server = GRPCServer(transport: transport, services: [HealthDoor(shutdown: DoorShutdown())])
        let serving = Task { try await server.serve() }
        let port = try await transport.listeningPort
        try await GRPCTestClient.with(TestClient(port: 0, grpcPort: port)) { grpc in
            try await body(server, serving, grpc)
        }
    }

    /// A health `Watch` of the whole server, once its first answer has arrived.
    private static func watchingStarted(_ grpc: GRPCTestClient) async -> Task<Void, any Error> {
        let (started, answered) = AsyncStream.makeStream(of: Void.self)
        let watching = Task { try await watch(grpc, answered: answered) }
        _ = await started.first { _ in true }
        return watching
    }

    /// Watches the health of the whole server until it ends, yielding to `answered` on each answer.
    private static func watch(_ grpc: GRPCTestClient, answered: AsyncStream<Void>.Continuation? = nil) async throws {
        try await grpc.health.watch(.with { $0.service = "" }) { response in
            for try await _ in response.messages { answered?.yield() }
        }
    }
}
