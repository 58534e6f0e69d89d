import FleetAuthServerHTTP
import GRPCCore
import Logging

/// What every gRPC method does around the core's operation: authenticate the token of the
/// `authorization` metadata (`Bearer <JWT>`), find the provider in the request's resource name,
/// answer with the operation's result (a thrown ``APIError`` becomes its gRPC status), and
/// count the call.
@available(macOS 15.0, iOS 18.0, *)
struct GRPCCallRunner: Sendable {
    /// The operations.
    let core: FleetEngineCore
    /// The door's logger.
    let logger: Logger

    /// Answers `request` to `method`: `target` reads the provider and the resource's id from the
    /// message (its `name`, or its `parent` and the new resource's id), `body` what the call is
    /// recorded with, and `operation` runs the core's operation for the authenticated call.
    func answer<Input: Sendable, Output: Sendable>(
        _ request: ServerRequest<Input>,
        method: String,
        target: (Input) throws(APIError) -> (provider: String, id: String),
        body: (Input) -> RequestBody?,
        _ operation: (FleetCall, _ id: String, Input) async throws -> Output
    ) async throws -> ServerResponse<Output> {
        var logger = logger
        logger[metadataKey: "method"] = "\(method)"
        return try await core.measured(method, door: .grpc, resource: (try? target(request.message))?.id ?? "") {
            note in
            let token = try await core.authenticate(
                authorization: request.metadata[stringValues: "authorization"].map { $0 }, path: method, logger: logger)
            note.keep(body: body(request.message))
            try await note.authenticated(token)
            let (provider, id) = try target(request.message)
            let call = FleetCall(token: token, provider: provider, logger: logger)
            return ServerResponse(message: try await operation(call, id, request.message))
        }
    }
}
