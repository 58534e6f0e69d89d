import FleetTokens
import Foundation
import TokenServer

/// One set of signing keys for the whole test run (RSA key generation is slow), written into
/// each test's data directory so that the server finds them as if it had made them.
enum TestKeys {
    static let projectID = "test-project"

    static let shared: SigningKeys = {
        var keys: [FleetEngineRole: ServiceAccountKey] = [:]
        for role in FleetEngineRole.allCases {
            // Generating a key only fails for a bad project or account id; these are fixed.
            keys[role] = try! ServiceAccountKey.generate(projectID: projectID, role: role)
        }
        return SigningKeys(projectID: projectID, keys: keys)
    }()

    /// Writes the shared keys into `dataDirectory/keys/`.
    static func install(in dataDirectory: String) throws {
        let folder = dataDirectory + "/keys"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (role, key) in shared.keys {
            try key.write(to: "\(folder)/\(role.shortName).json")
        }
    }
}
