/// An account of the token server (never its password or its hash).
public struct Account: Sendable, Hashable, Codable {
    /// The login name.
    public let username: String
    /// What the account may ask for.
    public let role: AccountRole
    /// When it was created, in epoch seconds.
    public let createdAt: Int64

    /// An account value.
    public init(username: String, role: AccountRole, createdAt: Int64) {
        self.username = username
        self.role = role
        self.createdAt = createdAt
    }
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
