import FleetTokens
import Foundation

/// Service-account keys made once per test run (RSA generation is slow), one per role.
enum TestKeys {
    static let project = "test-fleet"
    static let driver = key(.driverSDKUser)
    static let consumer = key(.consumerSDKUser)
    static let server = key(.serviceSuperUser)
    static let admin = key(.onDemandAdmin)
    static let viewer = key(.viewer)
    static let deliveryAdmin = key(.deliveryAdmin)
    /// Another key of the driver account (same email, its own key id).
    static let driverSecondKey = try! ServiceAccountKey.generate(projectID: project, role: .driverSDKUser)
    /// A key of an account no test engine trusts.
    static let stranger = try! ServiceAccountKey.generate(projectID: project, role: .serviceSuperUser, accountID: "fe-stranger")

    /// The keys the test engines trust, with their roles.
    static var trusted: [(ServiceAccountKey, FleetEngineRole)] {
        [(driver, .driverSDKUser), (consumer, .consumerSDKUser), (server, .serviceSuperUser), (admin, .onDemandAdmin),
         (viewer, .viewer), (deliveryAdmin, .deliveryAdmin)]
    }

    static var trustedAccounts: [TrustedServiceAccount] {
        trusted.map { TrustedServiceAccount(key: $0.0, role: $0.1) }
    }

    private static func key(_ role: FleetEngineRole) -> ServiceAccountKey {
        try! ServiceAccountKey.generate(projectID: project, role: role)
    }
}

/// Honest tokens for the tests, minted now.
enum Tokens {
    static func driver(_ vehicleID: String) -> String { mint(TestKeys.driver, .driver(vehicleID: vehicleID)) }
    static func consumer(_ tripID: String) -> String { mint(TestKeys.consumer, .consumer(tripID: tripID)) }
    static var server: String { mint(TestKeys.server, .server) }
    static var admin: String { mint(TestKeys.admin, .server) }
    static var viewer: String { mint(TestKeys.viewer, .fleetReader) }
    static var deliveryAdmin: String { mint(TestKeys.deliveryAdmin, .deliveryServer) }

    static func mint(_ key: ServiceAccountKey, _ kind: TokenKind) -> String {
        try! TokenMinter(key: key).mint(kind).token
    }

    /// Signs `claims` as they are (no checks), with `key`.
    static func sign(_ key: ServiceAccountKey, _ claims: AuthorizationClaims, issuedAt: Int64? = nil, lifetime: Int64 = 600) -> String {
        let now = issuedAt ?? Int64(Date().timeIntervalSince1970)
        let payload = FleetEngineClaims(issuer: key.clientEmail, subject: key.clientEmail, issuedAt: now, expiresAt: now + lifetime, authorization: claims)
        return try! TokenMinter(key: key).sign(payload)
    }
}
