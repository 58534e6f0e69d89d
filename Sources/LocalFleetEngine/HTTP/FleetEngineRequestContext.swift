import FleetTokens
import Hummingbird

/// The request context of the local Fleet Engine: Hummingbird's core context plus the token
/// the ``AuthenticationMiddleware`` verified.
struct FleetEngineRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The caller's verified token; set for every route behind the authentication middleware.
    var token: VerifiedToken?

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
    }
}
