import CommandSupport
import Foundation
import Locking
import Testing
import TestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `fleetauth token-server` in a network namespace and its PostgreSQL outside, across an
/// ``ImpairedLink``: under token requests (sent across the clean control link), the link between
/// the server and its database drops every packet for 10 s. Nothing is closed, so nothing tells
/// the server: it has to find out by its own bounds.
@Suite(
    "PostgreSQL unreachable across a partition", .serialized, .faultTest,
    .enabled(ImpairedLink.unavailable) {
        if ProcessInfo.processInfo.environment["CI"] == "true" { return true }
        return await ImpairedLink.isAvailable()
    })
struct DatabasePartitionTests {
    /// One token request's outcome, as the load saw it.
    struct Outcome: Sendable {
        let status: Int
        let retryAfter: String?
        let elapsed: Duration
        let finishedAt: ContinuousClock.Instant
    }

    @Test("PostgreSQL unreachable for 10 s under load: 200, or 503 with Retry-After, each within 5 s; healthz says so; served again within 2 s of the link's return; no connection leaked")
    func postgresUnreachableUnderLoad() async throws {
        try await PrivatePostgres.with(listeningBeyondLoopback: true) { cluster in
            let link = try await ImpairedLink.open()
            defer { link.close() }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("partition-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let server = try link.start([
                try ChildProcess.fleetauth, "token-server", "--data-dir", folder, "--host", "0.0.0.0", "--port", "8080", "--bcrypt-cost", "4",
                "--log-level", "critical", "--database-url", cluster.url.replacingOccurrences(of: "@127.0.0.1:", with: "@\(link.outsideAddress):"),
            ])
            _ = try await server.output(containing: "listening on")
            let client = TokenServerClient(base: "http://\(link.controlAddress):8080")
            let session = try await client.enroll(adminKeyFile: "\(folder)/admin-key")

            let outcomes = Locked<[Outcome]>([])
            let stop = Locked(false)
            let load = Task {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<8 {
                        group.addTask {
                            while !stop.withLock({ $0 }) {
                                let started = ContinuousClock.now
                                let answer = try? await client.send("GET", "/v1/tokens/driver/v-1", bearer: session)
                                let outcome = Outcome(
                                    status: answer?.status ?? 0, retryAfter: answer?.retryAfter, elapsed: .now - started, finishedAt: .now)
                                outcomes.withLock { $0.append(outcome) }
                                if answer?.status != 200 { try? await Task.sleep(for: .milliseconds(50)) }
                            }
                        }
                    }
                }
            }
            try await waitUntil { outcomes.withLock { $0.count >= 50 } }
            try await link.impair(.partition)
            let cut = ContinuousClock.now
            // Meanwhile: the refusals come, and healthz says what is wrong.
            try await waitUntil(timeout: .seconds(30)) { outcomes.withLock { $0.contains { $0.status == 503 } } }
            let health = try await client.send("GET", "/healthz")
            #expect(health.status == 503 && health.body.contains(#""status":"unavailable""#), "\(health)")
            try await Task.sleep(until: cut + .seconds(10))

            try await link.impair(.healed)
            let healed = ContinuousClock.now
            try await waitUntil(timeout: .seconds(30)) { outcomes.withLock { $0.contains { $0.status == 200 && $0.finishedAt > healed } } }
            let recovery = ContinuousClock.now - healed
            stop.withLock { $0 = true }
            await load.value
            #expect(try await client.send("GET", "/healthz").status == 200)
            server.stop()

            let all = outcomes.withLock { $0 }
            let refused = all.filter { $0.status != 200 }
            #expect(!refused.isEmpty)
            for outcome in refused {
                #expect(outcome.status == 503 && outcome.retryAfter == "1", "\(outcome)")
            }
            let slowest = all.map(\.elapsed).max() ?? .zero
            #expect(slowest < .seconds(5), "slowest answer: \(slowest)")
            #expect(recovery < .seconds(2), "served again \(recovery) after the link was back")
            print("PostgreSQL unreachable for 10 s: \(all.count) token requests, \(refused.count) answered 503, slowest \(slowest); served again \(recovery) after the link was back")
            try await cluster.waitUntilNoConnectionIsLeft()
        }
    }
}

/// The token server's HTTP API as a test drives it across the control link.
struct TokenServerClient: Sendable {
    let base: String
    private let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 16
        return URLSession(configuration: configuration)
    }()

    /// An answer: its status, `Retry-After` and body.
    struct Answer: Sendable, CustomStringConvertible {
        let status: Int
        let retryAfter: String?
        let body: String
        var description: String { "\(status) \(body)" }
    }

    init(base: String) {
        self.base = base
    }

    func send(_ method: String, _ path: String, bearer: String? = nil, json: [String: String]? = nil) async throws -> Answer {
        var request = URLRequest(url: URL(string: base + path)!, timeoutInterval: 30)
        request.httpMethod = method
        bearer.map { request.setValue("Bearer \($0)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONEncoder().encode(json)
        }
        let (body, response) = try await session.data(for: request)
        let http = response as? HTTPURLResponse
        return Answer(status: http?.statusCode ?? 0, retryAfter: http?.value(forHTTPHeaderField: "Retry-After"), body: String(decoding: body, as: UTF8.self))
    }

    /// Makes driver `ann`, assigned to vehicle `v-1`, with the admin key in `adminKeyFile`, and
    /// returns her session token.
    func enroll(adminKeyFile: String) async throws -> String {
        let adminKey = try String(contentsOfFile: adminKeyFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let password = "a-password-for-partitions"
        for (method, path, body, status) in [
            ("POST", "/v1/admin/accounts", ["username": "ann", "password": password, "role": "driver"], 201),
            ("PUT", "/v1/admin/vehicles/v-1/driver", ["username": "ann"], 200),
        ] {
            let answer = try await send(method, path, bearer: adminKey, json: body)
            guard answer.status == status else { throw TestFailure("\(method) \(path): \(answer)") }
        }
        let login = try await send("POST", "/v1/sessions", json: ["username": "ann", "password": password])
        struct Session: Decodable { let sessionToken: String }
        guard login.status == 201 else { throw TestFailure("login: \(login)") }
        return try JSONDecoder().decode(Session.self, from: Data(login.body.utf8)).sessionToken
    }
}
