import FleetAuthServerStorage
import Foundation
import Hummingbird

extension RouterMethods {
    /// Adds `GET /healthz`, answering what `check` finds: 200 with `{"status":"ok", …}` while
    /// the database answers; 503 with `Retry-After` and `{"status":"unavailable", …}`, saying
    /// why, while it does not. On PostgreSQL it also says whether changes are heard.
    @discardableResult
    package func addHealthRoute(_ check: @escaping @Sendable () async -> DatabaseHealth) -> Self {
        get("healthz") { _, _ in
            let health = await check()
            return Self.statusAnswer(health, ready: health.isHealthy)
        }
    }

    /// Adds `GET /livez` and `GET /readyz`, the two questions a platform asks apart.
    ///
    /// `/livez` answers 200 while the process serves: restart it when this fails. `/readyz`
    /// answers 200 while the server should be sent traffic, and 503 with `Retry-After` and the
    /// reasons while it should not: while it drains (``ServerLifecycle``), and while `problems`
    /// names any (the database does not answer, a signer cannot sign).
    @discardableResult
    package func addLivenessAndReadinessRoutes(
        lifecycle: ServerLifecycle, problems: @escaping @Sendable () async -> [String]
    ) -> Self {
        get("livez") { _, _ in
            Self.statusAnswer(Probe(status: "live"), ready: true)
        }
        return get("readyz") { _, _ in
            var reasons: [String] = []
            if lifecycle.isDraining { reasons.append(ServerLifecycle.drainingReason) }
            reasons += await problems()
            guard reasons.isEmpty else {
                return Self.statusAnswer(Probe(status: "unavailable", reasons: reasons), ready: false)
            }
            return Self.statusAnswer(Probe(status: "ready"), ready: true)
        }
    }

    /// `body` as sorted JSON, never cached: 200, or 503 with `Retry-After` when not `ready`.
    private static func statusAnswer(_ body: some Encodable, ready: Bool) -> Response {
        var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store"]
        if !ready { headers[.retryAfter] = "\(DatabaseUnavailable.momentaryRetryAfter.components.seconds)" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(body)) ?? Data()
        return Response(
            status: ready ? .ok : .serviceUnavailable, headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The body of `/livez` and `/readyz`: `{"status": …}`, with the reasons when not ready.
private struct Probe: Encodable {
    let status: String
    var reasons: [String]? = nil
}
