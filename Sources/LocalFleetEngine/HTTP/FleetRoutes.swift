import FleetAuthServerHTTP
import HTTPTypes
import Hummingbird

extension RouterGroup where Context == FleetEngineRequestContext {
    /// Adds `method path` as the API method `api` (e.g. `UpdateVehicle`): the caller's
    /// `Authorization: Bearer <JWT>` is verified (401 `UNAUTHENTICATED` naming the rule
    /// otherwise), the verified token put in the context for `handler`, and the call counted.
    @discardableResult
    func route(
        _ method: HTTPRequest.Method, _ path: RouterPath, _ api: String, core: FleetEngineCore,
        handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator
    ) -> Self {
        on(path, method: method) { request, context in
            var request = request
            let hasBody = [.post, .put, .patch].contains(method)
            return try await core.restCall(
                api, resource: Self.resourceID(of: request, context),
                authorization: request.headers[values: .authorization], path: request.uri.path,
                logger: context.logger, body: hasBody ? { try await Self.collectBody(of: &request) } : nil
            ) { token in
                var context = context
                context.token = token
                return try await handler(request, context).response(from: request, context: context)
            }
        }
    }

    /// The body of `request`, collected (at most ``ProtoJSONBody/maximumMessageSize`` bytes, the
    /// largest any method takes) so that the call is recorded with it and the handler reads it
    /// again; each handler then applies its own method's limit, after the permission check.
    private static func collectBody(of request: inout Request) async throws(APIError) -> ByteBuffer {
        do {
            return try await request.collectBody(upTo: ProtoJSONBody.maximumMessageSize)
        } catch {
            throw .invalidArgument(
                "the request body is larger than \(ProtoJSONBody.maximumMessageSize) bytes, more than any method takes")
        }
    }

    /// The id of the resource a request names, for the console: its path's resource, or for a
    /// creation the id in its query (`vehicleId=…`); empty for a collection.
    private static func resourceID(of request: Request, _ context: Context) -> String {
        for (name, value) in context.parameters where name != "provider" {
            return value.removingPercentEncoding ?? String(value)
        }
        let query = request.uri.formQueryParameters
        for name in ["vehicleId", "tripId", "deliveryVehicleId", "taskId"] {
            if let id = query.get(name) { return id }
        }
        return ""
    }
}
