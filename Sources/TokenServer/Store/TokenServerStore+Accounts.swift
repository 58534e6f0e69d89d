import SQLKit

extension TokenServerStore {
    /// What `password_hash` holds for an account without a password: no bcrypt hash looks
    /// like it, so no password matches it (shadow(5)'s convention).
    static let noPasswordHash = "!"

    /// Adds an account with a bcrypt `passwordHash` (`nil`: no password; it logs in only
    /// through its identity) and, with the account's ``Account/identity``, the link to that
    /// identity — both or neither. An identity linked to another account is refused.
    package func createAccount(_ account: Account, passwordHash: String?) async throws {
        let passwordHash = passwordHash ?? Self.noPasswordHash
        try await database.transaction { db in
            let inserted = try await db.raw(
                """
                INSERT INTO token_server_accounts (username, role, password_hash, created_at)
                VALUES (\(bind: account.username), \(bind: account.role.rawValue), \(bind: passwordHash), \(bind: account.createdAt))
                ON CONFLICT (username) DO NOTHING
                RETURNING username
                """
            ).first()
            guard inserted != nil else { throw StoreError.accountExists(username: account.username) }
            guard let identity = account.identity else { return }
            let linked = try await db.raw(
                """
                INSERT INTO token_server_identities (issuer, subject, username, created_at)
                VALUES (\(bind: identity.issuer), \(bind: identity.subject), \(bind: account.username), \(bind: account.createdAt))
                ON CONFLICT (issuer, subject) DO NOTHING
                RETURNING username
                """
            ).first()
            guard linked != nil else { throw StoreError.identityTaken(identity) }
        }
    }

    /// Deletes an account with its sessions, assignments and identity link, all at once;
    /// `false` if there was no such account.
    @discardableResult
    package func deleteAccount(username: String) async throws -> Bool {
        try await database.transaction { db in
            try await db.raw("DELETE FROM token_server_sessions WHERE username = \(bind: username)").run()
            try await db.raw("DELETE FROM token_server_identities WHERE username = \(bind: username)").run()
            try await db.raw("DELETE FROM token_server_assignments WHERE username = \(bind: username)").run()
            let deleted = try await db.raw(
                "DELETE FROM token_server_accounts WHERE username = \(bind: username) RETURNING username"
            ).first()
            return deleted != nil
        }
    }

    /// The account named `username`, if any.
    package func account(username: String) async throws -> Account? {
        try await sql.raw("\(Self.selectAccounts) WHERE a.username = \(bind: username)")
            .first()
            .map(Self.account(from:))
    }

    /// Every account, by username; with `after`, only those after it; at most `limit`.
    package func accounts(after: String? = nil, limit: Int = .max) async throws -> [Account] {
        let after: SQLQueryString = after.map { "WHERE a.username > \(bind: $0)" } ?? ""
        let limit: SQLQueryString = limit == .max ? "" : "LIMIT \(bind: limit)"
        return try await sql.raw("\(Self.selectAccounts) \(after) ORDER BY a.username \(limit)")
            .all()
            .map(Self.account(from:))
    }

    /// The bcrypt hash of the account's password, if the account exists and has a password.
    func passwordHash(username: String) async throws -> String? {
        let hash = try await sql.raw(
            "SELECT password_hash FROM token_server_accounts WHERE username = \(bind: username)"
        )
        .first()?
        .decode(column: "password_hash", as: String.self)
        return hash == Self.noPasswordHash ? nil : hash
    }

    /// Accounts with their identities, the columns ``account(from:)`` reads.
    private static let selectAccounts: SQLQueryString = """
        SELECT a.username AS username, a.role AS role, a.created_at AS created_at, i.issuer AS issuer, i.subject AS subject
        FROM token_server_accounts a LEFT JOIN token_server_identities i ON i.username = a.username
        """

    static func account(from row: any SQLRow) throws -> Account {
        let issuer = try row.decode(column: "issuer", as: String?.self)
        let subject = try row.decode(column: "subject", as: String?.self)
        return Account(
            username: try row.decode(column: "username", as: String.self),
            role: try role(from: row),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            identity: issuer.flatMap { issuer in subject.map { LinkedIdentity(issuer: issuer, subject: $0) } }
        )
    }

    /// The account role in the row's `role` column (rows written by earlier versions may spell
    /// it as they did).
    static func role(from row: any SQLRow) throws -> AccountRole {
        let name = try row.decode(column: "role", as: String.self)
        guard let role = AccountRole(name: name) else {
            throw StoreCorruption("an account has the unknown role \"\(name)\"")
        }
        return role
    }
}

/// A row that this version of FleetAuth cannot read (written by hand or by a newer version).
struct StoreCorruption: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
