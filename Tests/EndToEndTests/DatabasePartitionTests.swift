import CommandSupport
import FleetAuthLocking
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `fleetauth token-server` in a network namespace and its PostgreSQL outside, across an
/// ``ImpairedLink``: under token requests (sent across the clean control link), the link between
/// the server and its database drops every packet for 10 s. Nothing is closed, so nothing tells
/// the server: it has to find out by its own bounds.
@Suite("PostgreSQL unreachable across a partition", .serialized, .faultTest, ImpairedLink.required)
struct DatabasePartitionTests {
    /// One token request's outcome, as the load saw it.
    struct Outcome: Sendable {
        let status: Int
        let retryAfter: String?
        let elapsed: Duration
        let finishedAt: ContinuousClock.Instant
    }

    /// `url` as the server in the namespace reaches the cluster: at `address`, with the
    /// server's own wait limit (4 s; the private cluster's URL asks for more, for a fresh
    /// cluster's first statements on a busy machine).
    static func serverURL(_ url: String, reachedAt address: String) -> String {
        url.replacingOccurrences(of: "@127.0.0.1:", with: "@\(address):").replacingOccurrences(
            of: "&wait_limit=\(PrivatePostgres.waitLimit.components.seconds)", with: "")
    }

    @Test(
        "PostgreSQL unreachable for 10 s under load: 200, or 503 with Retry-After, each within 5 s; healthz says so; served again within 2 s of the link's return; no connection leaked"
    )
    func postgresUnreachableUnderLoad() async throws {
        try await PrivatePostgres.with(listeningBeyondLoopback: true) { cluster in
            let link = try await ImpairedLink.open()
            defer { link.close() }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("partition-\(UUID().uuidString)")
                .path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let server = try link.start([
                // One session asks as fast as it can: the per-session limit is not what is tested.
                try ChildProcess.fleetauth, "token-server", "--data-dir", folder, "--host", "0.0.0.0", "--port", "8080",
                "--bcrypt-cost", "4",
                "--token-requests-per-minute", "0",
                "--log-level", "critical", "--database-url",
                Self.serverURL(cluster.url, reachedAt: link.outsideAddress),
            ])
            _ = try await server.output(containing: "listening on")
            let client = LinkHTTPClient(base: "http://\(link.controlAddress):8080")
            let session = try await client.enroll(
                "ann", role: "driver", assignedTo: "vehicles/v-1", adminKeyFile: "\(folder)/admin-key")

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
                                    status: answer?.status ?? 0, retryAfter: answer?.retryAfter,
                                    elapsed: .now - started, finishedAt: .now)
                                outcomes.withLock { $0.append(outcome) }
                                if answer?.status != 200 { try? await Task.sleep(for: .milliseconds(50)) }
                            }
                        }
                    }
                }
            }
            // Stopped however the test ends.
            defer {
                stop.withLock { $0 = true }
                load.cancel()
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
            try await waitUntil(timeout: .seconds(30)) {
                outcomes.withLock { $0.contains { $0.status == 200 && $0.finishedAt > healed } }
            }
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
            print(
                "PostgreSQL unreachable for 10 s: \(all.count) token requests, \(refused.count) answered 503, slowest \(slowest); served again \(recovery) after the link was back"
            )
            try await cluster.waitUntilNoConnectionIsLeft()
        }
    }
}
