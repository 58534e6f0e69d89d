import FleetTokens
import Foundation

/// Service-account keys made once per test run (RSA generation is slow), one per role, for
/// every test target: minting, verifying, the servers' key folders.
public enum TestKeys {
    /// The project every test key belongs to.
    public static let project = "test-project"
    /// The driver account's key.
    public static let driver = key(.driverSDKUser)
    /// The consumer account's key.
    public static let consumer = key(.consumerSDKUser)
    /// The fleet operator's server key.
    public static let server = key(.serviceSuperUser)
    /// The on-demand admin's key.
    public static let admin = key(.onDemandAdmin)
    /// The fleet reader's key.
    public static let viewer = key(.viewer)
    /// The delivery admin's key.
    public static let deliveryAdmin = key(.deliveryAdmin)
    /// The keys of the other delivery roles.
    public static let deliverySuperUser = key(.deliverySuperUser)
    public static let deliveryTrustedDriver = key(.deliveryTrustedDriver)
    public static let deliveryUntrustedDriver = key(.deliveryUntrustedDriver)
    public static let deliveryConsumer = key(.deliveryConsumer)
    public static let deliveryFleetReader = key(.deliveryFleetReader)
    /// Another key of the driver account (same email, its own key id).
    public static let driverSecondKey = key(.driverSDKUser)
    /// A key of an account no test trusts.
    public static let stranger = try! ServiceAccountKey.generate(
        projectID: project, role: .serviceSuperUser, accountID: "fe-stranger")

    /// The key of each role, the one a server of the tests signs with.
    public static let byRole: [FleetEngineRole: ServiceAccountKey] = {
        var keys: [FleetEngineRole: ServiceAccountKey] = [
            .driverSDKUser: driver, .consumerSDKUser: consumer, .serviceSuperUser: server, .onDemandAdmin: admin,
            .viewer: viewer, .deliveryAdmin: deliveryAdmin, .deliverySuperUser: deliverySuperUser,
            .deliveryTrustedDriver: deliveryTrustedDriver, .deliveryUntrustedDriver: deliveryUntrustedDriver,
            .deliveryConsumer: deliveryConsumer, .deliveryFleetReader: deliveryFleetReader,
        ]
        for role in FleetEngineRole.allCases where keys[role] == nil { keys[role] = key(role) }
        return keys
    }()

    /// The keys the tests' verifiers and engines trust, with their roles: one per role.
    public static var trusted: [(ServiceAccountKey, FleetEngineRole)] {
        [
            (driver, .driverSDKUser), (consumer, .consumerSDKUser), (server, .serviceSuperUser),
            (admin, .onDemandAdmin),
            (viewer, .viewer), (deliveryAdmin, .deliveryAdmin), (deliverySuperUser, .deliverySuperUser),
            (deliveryTrustedDriver, .deliveryTrustedDriver), (deliveryUntrustedDriver, .deliveryUntrustedDriver),
            (deliveryConsumer, .deliveryConsumer), (deliveryFleetReader, .deliveryFleetReader),
        ]
    }

    /// ``trusted`` as accounts.
    public static var trustedAccounts: [TrustedServiceAccount] {
        trusted.map { TrustedServiceAccount(key: $0.0, role: $0.1) }
    }

    /// Writes the key of every role into `folder` as `<role>.json`, as the token server keeps
    /// the keys it makes, so that a server started on it finds them as its own.
    public static func install(in folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (role, key) in byRole {
            try key.write(to: "\(folder)/\(role.shortName).json")
        }
    }

    private static func key(_ role: FleetEngineRole) -> ServiceAccountKey {
        // Generating a key only fails for a bad project or account id; these are fixed.
        try! ServiceAccountKey.generate(projectID: project, role: role)
    }
}
