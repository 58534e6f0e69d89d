import Foundation
import FleetTokens

/// The token server's service-account keys, one per Fleet Engine role, kept as
/// `keys/<role>.json` files (mode 0600) in the data directory.
package struct SigningKeys: Sendable {
    /// The project every key belongs to.
    package let projectID: String
    /// The key of each role.
    package let keys: [FleetEngineRole: ServiceAccountKey]

    /// Keys made or loaded elsewhere (e.g. in tests).
    package init(projectID: String, keys: [FleetEngineRole: ServiceAccountKey]) {
        self.projectID = projectID
        self.keys = keys
    }

    /// Loads `directory/<role>.json` for every role but `keyless` ones (which sign through
    /// IAM), making (and writing) the missing ones. A key of another project is refused, so
    /// that replicas never mix projects.
    package static func loadOrCreate(directory: String, projectID: String, except keyless: Set<FleetEngineRole> = []) throws(KeyFileError) -> SigningKeys {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw KeyFileError(file: directory, problem: "cannot be created as a folder")
        }
        var keys: [FleetEngineRole: ServiceAccountKey] = [:]
        for role in FleetEngineRole.allCases where !keyless.contains(role) {
            let path = URL(fileURLWithPath: directory).appendingPathComponent("\(role.shortName).json").path
            let key = try loadOrCreate(path: path, role: role, projectID: projectID)
            guard key.projectID == projectID else {
                throw KeyFileError(file: path, problem: "belongs to project \"\(key.projectID)\", not \"\(projectID)\" (pass --project \(key.projectID), or use another data dir)")
            }
            keys[role] = key
        }
        return SigningKeys(projectID: projectID, keys: keys)
    }

    private static func loadOrCreate(path: String, role: FleetEngineRole, projectID: String) throws(KeyFileError) -> ServiceAccountKey {
        if FileManager.default.fileExists(atPath: path) {
            return try ServiceAccountKey(contentsOf: path)
        }
        let key = try ServiceAccountKey.generate(projectID: projectID, role: role)
        do {
            try key.write(to: path, overwrite: false)
            return key
        } catch {
            // Another replica sharing the folder wrote it first: use theirs.
            guard FileManager.default.fileExists(atPath: path) else { throw error }
            return try ServiceAccountKey(contentsOf: path)
        }
    }

    /// The key that signs tokens for `role`.
    package func key(for role: FleetEngineRole) -> ServiceAccountKey? {
        keys[role]
    }

    /// The public half of every key with its role, as a verifier trusts them.
    package var trustedAccounts: [TrustedServiceAccount] {
        keys.sorted { $0.key.rawValue < $1.key.rawValue }.map { TrustedServiceAccount(key: $0.value, role: $0.key) }
    }

    /// The JSON Web Key Set of every public key, labelled with account and role.
    package func jsonWebKeySet() throws(JSONWebKeySetError) -> JSONWebKeySet {
        try JSONWebKeySet(publishing: keys.sorted { $0.key.rawValue < $1.key.rawValue }.map { (key: $0.value, role: $0.key) })
    }
}
