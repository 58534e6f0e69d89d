import FleetTokens
import Logging
import NIOCore

extension FleetEngineCore {
    /// The frame of every REST call, the router's routes' and the pipeline route's alike:
    /// counted as API `method` on `resource`, its `Authorization` bearer authenticated (401
    /// naming the rule otherwise), its body kept for the console when `body` gives one, then
    /// `operation` with the verified token.
    func restCall<Result>(
        _ method: String, resource: String, authorization: [String], path: String, logger: Logger,
        body: (() async throws -> ByteBuffer)?, _ operation: (VerifiedToken) async throws -> Result
    ) async throws -> Result {
        try await measured(method, door: .rest, resource: resource) { note in
            let token = try await authenticate(authorization: authorization, path: path, logger: logger)
            if note.keepsBody, let body {
                let collected = try await body()
                note.keep(body: .rest(collected.readableBytesView))
            }
            try await note.authenticated(token)
            return try await operation(token)
        }
    }
}
