import FleetAuthServerHTTP
import FleetTokens
import Hummingbird

/// `GET /v1/admin/keys` answer.
struct SigningKeyList: Encodable {
    let keys: [SigningKeyStatus]
}

/// `POST /v1/admin/keys/{role}:rotate` answer: the new key.
struct RotatedKey: Encodable {
    let key: SigningKeyStatus
}

extension TokenServer {
    /// The signing keys under the admin API: `GET keys` (every key with its state, never a
    /// private half) and `POST keys/{role}:rotate` (a new key signs from now).
    func addKeyRoutes(to admin: RouterGroup<TokenServerContext>) {
        admin.get("keys") { _, _ in
            try JSONResponse.make(SigningKeyList(keys: self.keyRing.statuses))
        }
        admin.post("keys/{role}:rotate") { _, context in
            let name = try context.parameters.require("role")
            guard let role = FleetEngineRole(name: name) else {
                let roles = FleetEngineRole.allCases.map(\.shortName).joined(separator: ", ")
                throw APIError.invalidArgument("\"\(name)\" is not a role; the roles are \(roles)")
            }
            do {
                return try JSONResponse.make(RotatedKey(key: try await self.keyRing.rotate(role)))
            } catch let refused as KeyRotationRefused {
                throw APIError.failedPrecondition(refused.description)
            }
        }
    }
}
