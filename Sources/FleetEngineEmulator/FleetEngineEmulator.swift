import FleetAuthServerHTTP
import FleetAuthServerStorage
import FleetTokens
import Foundation
import LocalFleetEngine
import Logging

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The local Fleet Engine in a test's own process, on free loopback ports, with its test
/// harness at hand: ``reset(_:)`` for a clean state, ``clock`` to move its time, ``inject(_:)``
/// for faults and ``calls(method:resource:status:role:)`` to assert on what was called.
///
/// ```swift
/// let engine = try await FleetEngineEmulator.start(projectID: "my-fleet", trusting: [
///     TrustedServiceAccount(key: serverKey, role: .serviceSuperUser),
///     TrustedServiceAccount(key: driverKey, role: .driverSDKUser),
/// ])
/// try await engine.inject(.init(method: "UpdateVehicle", status: "UNAVAILABLE", count: 2))
/// try await engine.clock.advance(by: 3700)
/// let calls = try await engine.calls(method: "UpdateVehicle")
/// await engine.stop()
/// ```
///
/// The helper drives the same `/emulator/v1/` routes a test in another language would
/// (`docs/testing.md`), over HTTP on loopback: there is one harness.
public final class FleetEngineEmulator: Sendable {
    /// The provider (Cloud project id) the engine serves.
    public let projectID: String
    /// The REST door, e.g. `http://127.0.0.1:50123`; the API is under `/v1/providers/{projectID}/`.
    public let baseURL: URL
    /// The gRPC door's port on 127.0.0.1 (plaintext HTTP/2).
    public let grpcPort: Int
    /// The engine's time.
    public let clock: EmulatorClock

    private let service: RunningService
    private let database: ServerDatabase
    private let folder: String
    private let harness: HarnessClient

    private init(
        projectID: String, port: Int, grpcPort: Int, service: RunningService, database: ServerDatabase, folder: String
    ) {
        self.projectID = projectID
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
        self.grpcPort = grpcPort
        self.service = service
        self.database = database
        self.folder = folder
        self.harness = HarnessClient(baseURL: baseURL)
        self.clock = EmulatorClock(harness: harness)
    }

    /// Starts an engine serving `projectID`, trusting `accounts` and the accounts of the JWKS
    /// at `jwksURL` (a token server's `/.well-known/jwks.json`), its state in a temporary
    /// SQLite file that ``stop()`` removes.
    public static func start(
        projectID: String, trusting accounts: [TrustedServiceAccount] = [], jwksURL: URL? = nil,
        logger: Logger = Logger(label: "fleet-engine-emulator") { _ in SwiftLogNoOpLogHandler() }
    ) async throws -> FleetEngineEmulator {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fleet-engine-emulator-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let database = try await ServerDatabase.open(.sqlite(path: folder + "/fleet-engine.sqlite"), logger: logger)
        do {
            let store = SQLEngineStore(database: database)
            try await store.prepare()
            let (grpcPorts, grpcPortSink) = AsyncStream.makeStream(of: Int.self)
            let configuration = LocalFleetEngineConfiguration(
                projectID: projectID, trustedAccounts: accounts, jwksURL: jwksURL?.absoluteString, port: 0, grpcPort: 0,
                console: .loopback,
                onGRPCStarted: { grpcPortSink.yield($0) })
            let service = try await RunningService.start(logger: logger) { onStarted in
                var configuration = configuration
                configuration.onStarted = onStarted
                return LocalFleetEngine(configuration: configuration, store: store, logger: logger)
            }
            guard let grpcPort = await grpcPorts.first(where: { _ in true }) else {
                await service.stop()
                throw EmulatorError(message: "the engine's gRPC door did not start")
            }
            return FleetEngineEmulator(
                projectID: projectID, port: service.port, grpcPort: grpcPort, service: service, database: database,
                folder: folder)
        } catch {
            await database.shutdown()
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    /// Stops the engine (every accepted write saved first) and removes its state.
    public func stop() async {
        await service.stop()
        await database.shutdown()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Empties the engine, or only `kinds` (vehicles take their trips, delivery vehicles their
    /// tasks), at once. A full reset also forgets the recorded calls.
    public func reset(_ kinds: [ResourceKind]? = nil) async throws {
        let body: [String: [String]] = kinds.map { ["kinds": $0.map(\.rawValue)] } ?? [:]
        _ = try await harness.send("POST", "reset", body: body)
    }

    /// Makes the calls `fault` matches fail (or wait) as Google's services do; returns its id.
    @discardableResult
    public func inject(_ fault: Fault) async throws -> Int {
        let answer = try await harness.send("POST", "faults", body: fault)
        return (try JSONSerialization.jsonObject(with: answer) as? [String: Any])?["id"] as? Int ?? 0
    }

    /// Clears every fault.
    public func clearFaults() async throws {
        _ = try await harness.send("DELETE", "faults")
    }

    /// The calls made through either door that pass the filters, oldest first.
    public func calls(method: String? = nil, resource: String? = nil, status: String? = nil, role: String? = nil)
        async throws -> [Call]
    {
        var query = URLComponents()
        query.queryItems = [("method", method), ("resource", resource), ("status", status), ("role", role)]
            .compactMap { name, value in value.map { URLQueryItem(name: name, value: $0) } }
        let answer = try await harness.send("GET", "calls" + (query.percentEncodedQuery.map { "?" + $0 } ?? ""))
        return try JSONDecoder().decode(CallList.self, from: answer).calls
    }

    /// A kind of resource ``reset(_:)`` empties.
    public enum ResourceKind: String, Sendable {
        case vehicles, trips, deliveryVehicles, tasks
    }

    /// A fault to inject: which calls it matches, and the status they get, a delay, or both.
    public struct Fault: Sendable, Encodable {
        /// The API method, e.g. `UpdateVehicle`; every method when `nil`.
        public var method: String?
        /// The resource id; every resource when `nil`.
        public var resource: String?
        /// `rest` or `grpc`; both when `nil`.
        public var door: String?
        /// The status, e.g. `UNAVAILABLE`; `nil` for a delay alone.
        public var status: String?
        /// How many calls it matches; without end when `nil`.
        public var count: Int?
        /// The chance a matching call is faulted; every one when `nil`.
        public var probability: Double?
        /// How long a matched call waits first, as a duration such as `"2s"`.
        public var latency: String?

        /// A fault of the given parts.
        public init(
            method: String? = nil, resource: String? = nil, door: String? = nil, status: String? = nil,
            count: Int? = nil,
            probability: Double? = nil, latency: Duration? = nil
        ) {
            self.method = method
            self.resource = resource
            self.door = door
            self.status = status
            self.count = count
            self.probability = probability
            self.latency = latency.map {
                "\(Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18)s"
            }
        }
    }

    /// A call as the engine recorded it: never the token, only what it said.
    public struct Call: Sendable, Decodable {
        /// Its place among every call since start.
        public let sequence: UInt64
        /// When it ended, in milliseconds since 1970 by the engine's clock.
        public let time: Double
        /// `rest` or `grpc`.
        public let door: String
        /// The API method.
        public let method: String
        /// The resource id it named (empty for a collection).
        public let resource: String
        /// The token's signer, once its token was verified.
        public let signer: String?
        /// The signer's role, short (`driver`).
        public let role: String?
        /// The token's authorization claims (`vehicleid`, …) and `exp`.
        public let claims: [String: String]?
        /// `OK`, or the refusal's status.
        public let status: String
        /// The HTTP status the REST door answers with.
        public let httpStatus: Int
        /// The rule that refused it.
        public let rule: String?
        /// What it sent as the body, as Google's HTTP mapping defines it (over gRPC, the request
        /// field REST sends as the body). `nil` for none, for a body over 16 KiB or not a JSON
        /// object, and for a call refused for its token.
        public let body: Body?
        /// The id of the injected fault it met (``FleetEngineEmulator/inject(_:)``).
        public let injectedFault: Int?

        /// A recorded call's body.
        public struct Body: Sendable, Decodable {
            /// The body as Google's JSON, UTF-8: decode it with `JSONSerialization`, your own
            /// `Decodable` types, or swift-protobuf's `init(jsonUTF8Data:)`. Numbers pass
            /// through a `Double`: Google's JSON writes 64-bit integers as strings, which keep
            /// every digit, but a REST body's integer past 2^53 loses precision.
            public let json: Data

            public init(from decoder: any Decoder) throws {
                json = try JSONEncoder().encode(JSONValue(from: decoder))
            }
        }
    }

    private struct CallList: Decodable {
        let calls: [Call]
    }
}

/// The engine's clock, which tokens' `exp`, location stamps, ETAs and the console follow.
public struct EmulatorClock: Sendable {
    fileprivate let harness: HarnessClient

    /// Moves the engine's time by `seconds` (negative: back).
    public func advance(by seconds: TimeInterval) async throws {
        try await change(["advance": "\(seconds)s"])
    }

    /// Sets the engine's time to `date`.
    public func set(to date: Date) async throws {
        try await change(["set": date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))])
    }

    /// Stops the engine's time where it is (`true`), or lets it run on (`false`).
    public func freeze(_ frozen: Bool = true) async throws {
        _ = try await harness.send("POST", "clock", body: ["freeze": frozen])
    }

    /// Back to the machine's time, running.
    public func reset() async throws {
        _ = try await harness.send("POST", "clock", body: ["reset": true])
    }

    /// The engine's time now.
    public func now() async throws -> Date {
        let answer = try await harness.send("GET", "clock")
        guard let text = (try JSONSerialization.jsonObject(with: answer) as? [String: Any])?["now"] as? String,
            let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        else { throw EmulatorError(message: "the engine's clock answered what is not a time") }
        return date
    }

    private func change(_ body: [String: String]) async throws {
        _ = try await harness.send("POST", "clock", body: body)
    }
}

/// A refusal of the harness, with its message.
public struct EmulatorError: Error, CustomStringConvertible {
    /// What the engine said.
    public let message: String

    public var description: String { message }
}

/// The `/emulator/v1/` routes over HTTP on loopback.
private struct HarnessClient: Sendable {
    let baseURL: URL

    /// `method path` with `body` as JSON; the answer's body, or the harness's refusal thrown.
    func send(_ method: String, _ path: String, body: (any Encodable & Sendable)? = nil) async throws -> Data {
        var request = URLRequest(url: URL(string: baseURL.absoluteString + "/emulator/v1/" + path)!)
        request.httpMethod = method
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONEncoder().encode(body)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            let message =
                ((try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["error"] as? [String: Any])?[
                    "message"] as? String
            throw EmulatorError(
                message: message ?? "the harness answered \((response as? HTTPURLResponse)?.statusCode ?? 0)")
        }
        return data
    }
}
