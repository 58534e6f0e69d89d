import FleetServerSupport
import FleetTokens
import Foundation
import Hummingbird

/// What every route does before its own work: decide access from the verified token (403
/// before anything is looked up), read path parameters and ids, and turn rule violations into
/// 400s.
struct RouteAccess: Sendable {
    let policy: AccessPolicy

    /// The decision for `operation` on the path's provider; throws 403 when denied.
    func authorize(_ operation: FleetOperation, _ context: FleetEngineRequestContext) throws(APIError) -> AccessDecision {
        guard let token = context.token else { throw .unauthenticated(TokenRefusal.missing.description) }
        let decision = policy.decide(token, operation, provider: try Self.pathParameter("provider", context))
        if case .denied(let rule) = decision {
            context.logger.info("permission denied", metadata: ["operation": "\(operation)", "role": "\(token.role.shortName)"])
            throw .permissionDenied(rule)
        }
        return decision
    }

    /// The path parameter `name`, percent-decoded.
    static func pathParameter(_ name: String, _ context: FleetEngineRequestContext) throws(APIError) -> String {
        guard let raw = context.parameters.get(name) else { throw .notFound("the path has no \(name)") }
        guard raw.utf8.contains(UInt8(ascii: "%")) else { return raw }
        guard let decoded = raw.removingPercentEncoding else { throw .invalidArgument("the path's \(name) is not valid percent-encoding") }
        return decoded
    }

    /// Refuses an id that is missing or not a plain Fleet Engine id; `what` names it.
    static func requireValidID(_ id: String, _ what: String) throws(APIError) {
        guard !id.isEmpty else { throw .invalidArgument("\(what) is required") }
        if let problem = FleetEngineIdentifier.problem(with: id) { throw .invalidArgument("\(what) \(problem)") }
    }

    /// Runs a validation, turning its ``InvalidArgument`` into a 400.
    static func validate(_ check: () throws(InvalidArgument) -> Void) throws(APIError) {
        do {
            try check()
        } catch {
            throw .invalidArgument(error.description)
        }
    }
}
