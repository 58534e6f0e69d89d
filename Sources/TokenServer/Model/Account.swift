/// An account of the token server (never its password or its hash).
public struct Account: Sendable, Hashable, Codable {
    /// The login name.
    public let username: String
    /// What the account may ask for.
    public let role: AccountRole
    /// When it was created, in epoch seconds.
    public let createdAt: Int64
    /// The OpenID Connect user whose ID tokens act as this account, if any.
    public let identity: LinkedIdentity?

    /// An account value.
    public init(username: String, role: AccountRole, createdAt: Int64, identity: LinkedIdentity? = nil) {
        self.username = username
        self.role = role
        self.createdAt = createdAt
        self.identity = identity
    }
}

/// A user of an OpenID Connect issuer (the app's own sign-in: Firebase Authentication,
/// Auth0, Keycloak, …), as its ID tokens name them: `iss` and `sub`.
public struct LinkedIdentity: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The issuer, exactly as its tokens' `iss` spells it.
    public let issuer: String
    /// The user's id at the issuer, its tokens' `sub`.
    public let subject: String

    /// An identity value.
    public init(issuer: String, subject: String) {
        self.issuer = issuer
        self.subject = subject
    }

    /// `subject "abc" of https://issuer`.
    public var description: String { "subject \"\(subject)\" of \(issuer)" }
}

/// An account's standing assignment to one resource.
public struct Assignment: Sendable, Hashable, Codable {
    /// The resource's kind.
    public let kind: ResourceKind
    /// The resource's id.
    public let resourceID: String
    /// The account assigned to it.
    public let username: String

    /// An assignment value.
    public init(kind: ResourceKind, resourceID: String, username: String) {
        self.kind = kind
        self.resourceID = resourceID
        self.username = username
    }

    /// The resource assigned.
    public var resource: Resource { Resource(kind, id: resourceID) }
}
