import SQLKit

extension TokenServerStore {
    /// Adds an account with a bcrypt `passwordHash`.
    public func createAccount(_ account: Account, passwordHash: String) async throws {
        let inserted = try await sql.raw("""
            INSERT INTO token_server_accounts (username, role, password_hash, created_at)
            VALUES (\(bind: account.username), \(bind: account.role.rawValue), \(bind: passwordHash), \(bind: account.createdAt))
            ON CONFLICT (username) DO NOTHING
            RETURNING username
            """).first()
        guard inserted != nil else { throw StoreError.accountExists(username: account.username) }
    }

    /// Deletes an account with its sessions and assignments, all at once; `false` if there
    /// was no such account.
    @discardableResult
    public func deleteAccount(username: String) async throws -> Bool {
        try await database.transaction { db in
            try await db.raw("DELETE FROM token_server_sessions WHERE username = \(bind: username)").run()
            try await db.raw("DELETE FROM token_server_assignments WHERE username = \(bind: username)").run()
            let deleted = try await db.raw("DELETE FROM token_server_accounts WHERE username = \(bind: username) RETURNING username").first()
            return deleted != nil
        }
    }

    /// The account named `username`, if any.
    public func account(username: String) async throws -> Account? {
        try await sql.raw("SELECT username, role, created_at FROM token_server_accounts WHERE username = \(bind: username)")
            .first()
            .map(Self.account(from:))
    }

    /// Every account, by username.
    public func accounts() async throws -> [Account] {
        try await sql.raw("SELECT username, role, created_at FROM token_server_accounts ORDER BY username")
            .all()
            .map(Self.account(from:))
    }

    /// The bcrypt hash of the account's password, if the account exists.
    func passwordHash(username: String) async throws -> String? {
        try await sql.raw("SELECT password_hash FROM token_server_accounts WHERE username = \(bind: username)")
            .first()?
            .decode(column: "password_hash", as: String.self)
    }

    static func account(from row: any SQLRow) throws -> Account {
        Account(
            username: try row.decode(column: "username", as: String.self),
            role: try role(from: row),
            createdAt: try row.decode(column: "created_at", as: Int64.self)
        )
    }

    /// The account role in the row's `role` column.
    static func role(from row: any SQLRow) throws -> AccountRole {
        let name = try row.decode(column: "role", as: String.self)
        guard let role = AccountRole(rawValue: name) else {
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
