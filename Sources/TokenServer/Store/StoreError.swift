import FleetAuthServerHTTP

/// A change the store refused; each maps to the API error a caller sees.
package enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An account with this username exists already.
    case accountExists(username: String)
    /// No account has this username.
    case noSuchAccount(username: String)
    /// The account's role cannot be assigned to this kind of resource.
    case wrongRole(username: String, role: AccountRole, resource: Resource)
    /// Nobody is assigned to this resource.
    case notAssigned(Resource)
    /// Another account is linked to this identity already.
    case identityTaken(LinkedIdentity)

    /// What went wrong, in words.
    package var description: String {
        switch self {
        case .accountExists(let username):
            "account \"\(username)\" already exists"
        case .noSuchAccount(let username):
            "no account \"\(username)\""
        case .wrongRole(let username, let role, let resource):
            "account \"\(username)\" is a \(role) account; only \(resource.kind.accountRoleNames) accounts can be assigned to a \(resource.kind)"
        case .notAssigned(let resource):
            "nobody is assigned to \(resource)"
        case .identityTaken(let identity):
            "another account is linked to \(identity) already"
        }
    }

    /// The API error for this refusal.
    package var apiError: APIError {
        switch self {
        case .accountExists, .identityTaken: .alreadyExists(description)
        case .noSuchAccount, .notAssigned: .notFound(description)
        case .wrongRole: .invalidArgument(description)
        }
    }
}
