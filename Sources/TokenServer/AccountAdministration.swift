import FleetAuthServerHTTP
import Foundation

/// Account and assignment changes with their checks, shared by the admin API and the
/// `fleetauth accounts` / `assign` commands so that both enforce the same rules.
package struct AccountAdministration: Sendable {
    /// Where the changes go.
    package let store: TokenServerStore
    /// How passwords are hashed.
    package let hasher: PasswordHasher
    private let now: @Sendable () -> Date

    /// Administration of `store`, hashing with `hasher`, dated by `now`.
    package init(store: TokenServerStore, hasher: PasswordHasher, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.hasher = hasher
        self.now = now
    }

    private var epochSeconds: Int64 { Int64(now().timeIntervalSince1970.rounded(.down)) }

    /// Creates an account with a password, a linked OpenID Connect identity, or both (an
    /// account without a password cannot log in by password); 400 for a bad username,
    /// password, role or identity, or for neither a password nor an identity; 409 if the
    /// account exists or another account has the identity.
    package func createAccount(username: String, password: String?, roleName: String, identity: LinkedIdentity? = nil)
        async throws -> Account
    {
        try AccountRules.checkUsername(username)
        guard password != nil || identity != nil else {
            throw APIError.invalidArgument("give a password, an identity (issuer and subject), or both")
        }
        if let password { try AccountRules.checkPassword(password) }
        let role = try AccountRules.role(named: roleName)
        if let identity { try AccountRules.checkIdentity(identity) }
        let account = Account(username: username, role: role, createdAt: epochSeconds, identity: identity)
        let passwordHash: String? = if let password { try await hasher.hash(password) } else { nil }
        try await store.createAccount(account, passwordHash: passwordHash)
        return account
    }

    /// Deletes an account with its sessions, assignments and identity link; 404 if there is none.
    package func deleteAccount(username: String) async throws {
        try AccountRules.checkUsername(username)
        guard try await store.deleteAccount(username: username) else {
            throw StoreError.noSuchAccount(username: username)
        }
    }

    /// Assigns a resource to an account; 400 for a bad id or a role that does not fit, 404
    /// for an unknown account.
    package func assign(_ resource: Resource, to username: String) async throws -> Assignment {
        try AccountRules.checkResourceID(resource)
        try AccountRules.checkUsername(username)
        try await store.assign(resource, to: username, at: epochSeconds)
        return Assignment(kind: resource.kind, resourceID: resource.id, username: username)
    }

    /// Ends the assignment of a resource; 400 for a bad id, 404 if nobody was assigned.
    package func unassign(_ resource: Resource) async throws {
        try AccountRules.checkResourceID(resource)
        guard try await store.unassign(resource) else { throw StoreError.notAssigned(resource) }
    }

    /// Ends every session of an account (its apps must log in again; tokens already handed out
    /// live out their lifetime); returns how many; 404 if there is no such account.
    package func endSessions(username: String) async throws -> Int {
        try AccountRules.checkUsername(username)
        guard try await store.account(username: username) != nil else {
            throw StoreError.noSuchAccount(username: username)
        }
        return try await store.endSessions(username: username)
    }
}
