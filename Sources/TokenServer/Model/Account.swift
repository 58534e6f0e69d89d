/// An account of the token server (never its password or its hash).
package struct Account: Sendable, Hashable, Codable {
    /// The login name.
    package let username: String
    /// What the account may ask for.
    package let role: AccountRole
    /// When it was created, in epoch seconds.
    package let createdAt: Int64
    /// The OpenID Connect user whose ID tokens act as this account, if any.
    package let identity: LinkedIdentity?

    /// An account value.
    package init(username: String, role: AccountRole, createdAt: Int64, identity: LinkedIdentity? = nil) {
        self.username = username
        self.role = role
        self.createdAt = createdAt
        self.identity = identity
    }
}

/// A user of an OpenID Connect issuer (the app's own sign-in: Firebase Authentication,
/// Auth0, Keycloak, …), as its ID tokens name them: `iss` and `sub`.
package struct LinkedIdentity: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The issuer, exactly as its tokens' `iss` spells it.
    package let issuer: String
    /// The user's id at the issuer, its tokens' `sub`.
    package let subject: String

    /// An identity value.
    package init(issuer: String, subject: String) {
        self.issuer = issuer
        self.subject = subject
    }

    /// `subject "abc" of https://issuer`.
    package var description: String { "subject \"\(subject)\" of \(issuer)" }
}

/// An account's standing assignment to one resource.
package struct Assignment: Sendable, Hashable, Codable {
    /// The resource's kind.
    package let kind: ResourceKind
    /// The resource's id.
    package let resourceID: String
    /// The account assigned to it.
    package let username: String

    /// An assignment value.
    package init(kind: ResourceKind, resourceID: String, username: String) {
        self.kind = kind
        self.resourceID = resourceID
        self.username = username
    }

    /// The resource assigned.
    package var resource: Resource { Resource(kind, id: resourceID) }
}
