import FleetAuthServerHTTP
import FleetTokens
import Hummingbird

/// The request context of the local Fleet Engine: Hummingbird's core context plus the token
/// that ``RouterGroup/route(_:_:_:core:handler:)`` verified.
struct FleetEngineRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The caller's verified token; set for every Fleet Engine route before its handler runs.
    var token: VerifiedToken?

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
    }

    /// The request as the core sees it: the verified token and the path's provider.
    func fleetCall() throws(APIError) -> FleetCall {
        guard let token else { throw .unauthenticated(TokenRefusal.missing.description) }
        return FleetCall(token: token, provider: try pathParameter("provider"), logger: logger)
    }

    /// The path parameter `name`, percent-decoded.
    func pathParameter(_ name: String) throws(APIError) -> String {
        guard let raw = parameters.get(name) else { throw .notFound("the path has no \(name)") }
        guard raw.utf8.contains(UInt8(ascii: "%")) else { return raw }
        guard let decoded = raw.removingPercentEncoding else {
            throw .invalidArgument("the path's \(name) is not valid percent-encoding")
        }
        return decoded
    }
}
