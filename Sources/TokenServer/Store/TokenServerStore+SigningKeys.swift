import FleetTokens
import Foundation
import SQLKit

/// A signing key as the store keeps it: the key, its role, and when it began signing, was
/// replaced by a newer key of its role, and was retired.
package struct StoredSigningKey: Sendable, Equatable {
    /// The role whose tokens it signs.
    package let role: FleetEngineRole
    /// The key, private half included.
    package let key: ServiceAccountKey
    /// When it began signing (epoch seconds).
    package let addedAt: Int64
    /// When a newer key of its role began signing; `nil` while it signs.
    package let supersededAt: Int64?
    /// When it left the published keys; `nil` while published.
    package let retiredAt: Int64?

    /// Its key id, the `kid` of the tokens it signs.
    package var keyID: String { key.privateKeyID }

    package static func == (lhs: StoredSigningKey, rhs: StoredSigningKey) -> Bool {
        lhs.keyID == rhs.keyID && lhs.role == rhs.role && lhs.addedAt == rhs.addedAt
            && lhs.supersededAt == rhs.supersededAt
            && lhs.retiredAt == rhs.retiredAt
    }
}

extension TokenServerStore {
    /// Every signing key, retired ones included, by role and then oldest first. The keys of
    /// `known` are taken as they are instead of read again (reading an RSA key costs
    /// milliseconds).
    package func signingKeys(reusing known: [StoredSigningKey] = []) async throws -> [StoredSigningKey] {
        let rows = try await sql.raw(
            """
            SELECT kid, role, key_json, added_at, superseded_at, retired_at FROM token_server_signing_keys ORDER BY role, added_at, kid
            """
        ).all()
        let parsed = Dictionary(known.map { ($0.keyID, $0.key) }, uniquingKeysWith: { first, _ in first })
        return try rows.map { row in
            let kid = try row.decode(column: "kid", as: String.self)
            let roleName = try row.decode(column: "role", as: String.self)
            guard let role = FleetEngineRole(name: roleName) else {
                throw StoreCorruption("signing key \(kid) has an unknown role \"\(roleName)\"")
            }
            let key: ServiceAccountKey
            if let reused = parsed[kid] {
                key = reused
            } else {
                do {
                    key = try ServiceAccountKey(
                        json: Data(try row.decode(column: "key_json", as: String.self).utf8),
                        source: "the database's signing key \(kid)")
                } catch {
                    throw StoreCorruption("\(error)")
                }
            }
            return StoredSigningKey(
                role: role, key: key, addedAt: try row.decode(column: "added_at", as: Int64.self),
                supersededAt: try row.decode(column: "superseded_at", as: Int64?.self),
                retiredAt: try row.decode(column: "retired_at", as: Int64?.self))
        }
    }

    /// The ids of every signing key.
    package func signingKeyIDs() async throws -> Set<String> {
        Set(
            try await sql.raw("SELECT kid FROM token_server_signing_keys").all().map {
                try $0.decode(column: "kid", as: String.self)
            })
    }

    /// The roles that have a signing key.
    package func signingKeyRoles() async throws -> Set<FleetEngineRole> {
        let names = try await sql.raw("SELECT DISTINCT role FROM token_server_signing_keys").all().map {
            try $0.decode(column: "role", as: String.self)
        }
        return Set(names.compactMap(FleetEngineRole.init(name:)))
    }

    /// What changes whenever a key is added, replaced or retired: one small query, which each
    /// replica asks once a second (``SigningKeyRing``). It does not go through the memory of
    /// ``FleetAuthServerStorage/ServerDatabase/first(_:)``: on PostgreSQL that would hold a listening
    /// connection, with its heartbeats, for every replica that serves no grant from memory.
    package func signingKeysVersion() async throws -> String {
        let row = try await sql.raw(
            """
            SELECT COUNT(*) AS keys, COALESCE(MAX(added_at), 0) AS newest,
                COALESCE(SUM(CASE WHEN retired_at IS NULL THEN 0 ELSE 1 END), 0) AS retired,
                COALESCE(SUM(CASE WHEN superseded_at IS NULL THEN 0 ELSE 1 END), 0) AS superseded
            FROM token_server_signing_keys
            """
        ).first()
        guard let row else { return "" }
        let counts = try ["keys", "newest", "retired", "superseded"].map { try row.decode(column: $0, as: Int64.self) }
        return counts.map(String.init).joined(separator: "/")
    }

    /// Makes `key` the key that signs `role`'s tokens from `now`: the key that signed them
    /// until then is marked replaced at `now`, in the same transaction. With `onlyIfNone`, adds
    /// it only when the role has no key yet (replicas starting together keep the first).
    /// Returns whether the key was added (not when its id is known already).
    @discardableResult
    package func addSigningKey(
        _ key: ServiceAccountKey, for role: FleetEngineRole, at now: Int64, onlyIfNone: Bool = false
    ) async throws -> Bool {
        try await addSigningKeys([(key, role)], at: now, onlyIfNone: onlyIfNone) == 1
    }

    /// ``addSigningKey(_:for:at:onlyIfNone:)`` for each of `keys` in order, in one transaction;
    /// returns how many were added.
    package func addSigningKeys(
        _ keys: [(key: ServiceAccountKey, role: FleetEngineRole)], at now: Int64, onlyIfNone: Bool = false
    ) async throws -> Int {
        let rows = keys.map {
            (
                kid: $0.key.privateKeyID, role: $0.role.shortName,
                json: String(decoding: $0.key.jsonRepresentation(), as: UTF8.self)
            )
        }
        return try await database.transaction { db in
            var added = 0
            for row in rows {
                guard
                    try await db.raw("SELECT kid FROM token_server_signing_keys WHERE kid = \(bind: row.kid)").first()
                        == nil
                else { continue }
                if onlyIfNone,
                    try await db.raw("SELECT kid FROM token_server_signing_keys WHERE role = \(bind: row.role)").first()
                        != nil
                {
                    continue
                }
                try await db.raw(
                    """
                    UPDATE token_server_signing_keys SET superseded_at = \(bind: now)
                    WHERE role = \(bind: row.role) AND superseded_at IS NULL AND retired_at IS NULL
                    """
                ).run()
                try await db.raw(
                    """
                    INSERT INTO token_server_signing_keys (kid, role, key_json, added_at) VALUES
                    (\(bind: row.kid), \(bind: row.role), \(bind: row.json), \(bind: now))
                    """
                ).run()
                added += 1
            }
            return added
        }
    }

    /// Takes the key `keyID` out of the published keys at `now` (once; again changes nothing).
    package func retireSigningKey(_ keyID: String, at now: Int64) async throws {
        try await database.executeAtomically(
            SQLQueryString(
                "UPDATE token_server_signing_keys SET retired_at = \(bind: now) WHERE kid = \(bind: keyID) AND retired_at IS NULL"
            ))
    }
}
