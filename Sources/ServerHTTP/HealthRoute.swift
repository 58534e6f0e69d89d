import Foundation
import Hummingbird
import ServerStorage

extension RouterMethods {
    /// Adds `GET /healthz`, answering what `check` finds: 200 with `{"status":"ok", …}` while
    /// the database answers; 503 with `Retry-After` and `{"status":"unavailable", …}`, saying
    /// why, while it does not. On PostgreSQL it also says whether changes are heard.
    @discardableResult
    package func addHealthRoute(_ check: @escaping @Sendable () async -> DatabaseHealth) -> Self {
        get("healthz") { _, _ in
            let health = await check()
            var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store"]
            if !health.isHealthy { headers[.retryAfter] = "\(DatabaseUnavailable.retryAfter.components.seconds)" }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return Response(
                status: health.isHealthy ? .ok : .serviceUnavailable,
                headers: headers,
                body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(health)))
            )
        }
    }
}
