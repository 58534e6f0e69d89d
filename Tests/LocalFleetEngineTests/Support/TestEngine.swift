import FleetAuthServerHTTP
import FleetAuthServerStorage
import FleetTokens
import Foundation
import LocalFleetEngine
import Logging
import TestSupport

/// Local Fleet Engines for tests: real servers (REST and gRPC) on free loopback ports, with
/// SQLite stores in temporary folders.
enum TestEngine {
    /// A temporary folder of its own.
    static func makeFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fleet-engine-test-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs an engine trusting the test keys (changed by `configure`) with its data in
    /// `folder`, calls `body` with a client for it, then stops it.
    static func with<Result: Sendable>(
        folder: String? = nil,
        configure: @Sendable (inout LocalFleetEngineConfiguration) -> Void = { _ in },
        _ body: @Sendable (TestClient) async throws -> Result
    ) async throws -> Result {
        try await withDatabase(folder: folder, configure: configure) { client, _ in try await body(client) }
    }

    /// ``with(folder:configure:_:)``, also handing `body` the engine's database, for tests that
    /// make it fail; the data is at `location` when given (a PostgreSQL database, say), and the
    /// engine saves through what `wrap` makes of the store (a ``FaultyStore``, say).
    static func withDatabase<Result: Sendable>(
        folder: String? = nil,
        location: DatabaseLocation? = nil,
        wrap: @Sendable (SQLEngineStore) -> any EngineStore = { $0 },
        configure: @Sendable (inout LocalFleetEngineConfiguration) -> Void = { _ in },
        _ body: @Sendable (TestClient, ServerDatabase) async throws -> Result
    ) async throws -> Result {
        let location = try location ?? .sqlite(path: (folder ?? makeFolder()) + "/fleet-engine.sqlite")
        let logger = Logger(label: "test-fleet-engine")
        let database = try await ServerDatabase.open(location, logger: logger)
        let sqlStore = SQLEngineStore(database: database)
        try await sqlStore.prepare()
        let store = wrap(sqlStore)
        let (grpcPorts, grpcPortSink) = AsyncStream.makeStream(of: Int.self)
        var configuration = LocalFleetEngineConfiguration(
            projectID: TestKeys.project, trustedAccounts: TestKeys.trustedAccounts, port: 0, grpcPort: 0,
            onGRPCStarted: { grpcPortSink.yield($0) })
        configure(&configuration)
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(
                try await RunningService.with(
                    logger: logger,
                    { [configuration] onStarted in
                        var configuration = configuration
                        configuration.onStarted = onStarted
                        return LocalFleetEngine(configuration: configuration, store: store, logger: logger)
                    }
                ) { port in
                    guard let grpcPort = await grpcPorts.first(where: { _ in true }) else {
                        throw TestFailure("the gRPC door did not start")
                    }
                    return try await body(TestClient(port: port, grpcPort: grpcPort), database)
                })
        } catch {
            result = .failure(error)
        }
        await database.shutdown()
        return try result.get()
    }

    /// One engine for the whole test run, with the fixtures below; started on first use.
    static var shared: TestClient {
        get async throws { try await sharedEngine.value }
    }

    private static let sharedEngine = Task<TestClient, any Error> {
        let (clients, sink) = AsyncStream.makeStream(of: TestClient.self)
        Task {
            try await with { client in
                try await Fixtures.create(on: client)
                sink.yield(client)
                try await Task.sleep(for: .seconds(86_400))
            }
        }
        var iterator = clients.makeAsyncIterator()
        guard let client = await iterator.next() else { throw TestFailure("the shared engine did not start") }
        return client
    }
}
