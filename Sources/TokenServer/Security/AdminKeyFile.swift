import FleetTokens
import Foundation

/// The admin API key: written once, in the clear, to `DIR/admin-key` (mode 0600) for the
/// operator, and kept only as a hash in the database, so every replica accepts it.
package enum AdminKeyFile {
    /// What ``ensure(path:store:now:)`` found or did.
    package enum Setup: Sendable, Equatable {
        /// A new key was made and written to the file.
        case created(path: String)
        /// The file's key is the database's admin key.
        case fromFile(path: String)
        /// The database has an admin key and this data dir has no file (another replica's dir).
        case databaseOnly
        /// The file's key is not the database's admin key (the database was replaced or the
        /// key was rotated elsewhere); the file's key does not work.
        case fileDoesNotMatch(path: String)
    }

    /// Makes sure there is an admin key: reuses the file's or the database's, or makes one.
    package static func ensure(path: String, store: TokenServerStore, now: Int64) async throws -> Setup {
        if let key = try read(path) {
            let current = try await store.setAdminKeyHashIfAbsent(SecretToken.hash(key), at: now)
            return current == SecretToken.hash(key) ? .fromFile(path: path) : .fileDoesNotMatch(path: path)
        }
        if try await store.adminKeyHash() != nil { return .databaseOnly }
        let key = SecretToken.generate(prefix: SecretToken.adminKeyPrefix)
        do {
            try SecretFile.write(Data((key + "\n").utf8), to: path, overwrite: false)
        } catch {
            // A replica sharing this folder wrote one first: use it.
            guard FileManager.default.fileExists(atPath: path) else { throw error }
            return try await ensure(path: path, store: store, now: now)
        }
        let current = try await store.setAdminKeyHashIfAbsent(SecretToken.hash(key), at: now)
        return current == SecretToken.hash(key) ? .created(path: path) : .fileDoesNotMatch(path: path)
    }

    /// The key in the file at `path`, or `nil` if there is no file.
    static func read(_ path: String) throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            let text = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { throw KeyFileError(file: path, problem: "is empty") }
            return text
        } catch let error as KeyFileError {
            throw error
        } catch {
            throw KeyFileError(file: path, problem: "cannot be read")
        }
    }
}
