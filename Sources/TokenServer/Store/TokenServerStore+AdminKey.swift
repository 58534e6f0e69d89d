import SQLKit

extension TokenServerStore {
    /// The hash of the admin API key, if one is set.
    package func adminKeyHash() async throws -> String? {
        try await sql.raw("SELECT key_hash FROM token_server_admin_key WHERE id = 1").first()?.decode(
            column: "key_hash", as: String.self)
    }

    /// Sets the admin key's hash unless one is set already (replicas starting together keep
    /// the first); returns the hash in force afterwards.
    package func setAdminKeyHashIfAbsent(_ hash: String, at now: Int64) async throws -> String {
        try await writes.raw(
            """
            INSERT INTO token_server_admin_key (id, key_hash, created_at) VALUES (1, \(bind: hash), \(bind: now))
            ON CONFLICT (id) DO NOTHING
            """
        ).run()
        guard let current = try await adminKeyHash() else {
            throw StoreCorruption("the admin key vanished while being set")
        }
        return current
    }
}
