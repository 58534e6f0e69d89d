import FleetTokens
import Foundation
import TestSupport

/// Honest tokens for the tests, minted now.
enum Tokens {
    static func driver(_ vehicleID: String) -> String { mint(TestKeys.driver, .driver(vehicleID: vehicleID)) }
    static func consumer(_ tripID: String) -> String { mint(TestKeys.consumer, .consumer(tripID: tripID)) }
    static var server: String { mint(TestKeys.server, .server) }
    static var admin: String { mint(TestKeys.admin, .server) }
    static var viewer: String { mint(TestKeys.viewer, .fleetReader) }
    static var deliveryAdmin: String { mint(TestKeys.deliveryAdmin, .deliveryServer) }
    static var deliveryServer: String { mint(TestKeys.deliverySuperUser, .deliveryServer) }
    static var deliveryFleetReader: String { mint(TestKeys.deliveryFleetReader, .fleetReader) }
    static func trustedDeliveryDriver(_ vehicleID: String, taskID: String? = nil) -> String {
        mint(TestKeys.deliveryTrustedDriver, .trustedDeliveryDriver(deliveryVehicleID: vehicleID, taskID: taskID))
    }
    static func untrustedDeliveryDriver(_ vehicleID: String) -> String {
        mint(TestKeys.deliveryUntrustedDriver, .untrustedDeliveryDriver(deliveryVehicleID: vehicleID))
    }
    static func deliveryConsumer(trackingID: String) -> String {
        mint(TestKeys.deliveryConsumer, .deliveryConsumer(trackingID: trackingID))
    }

    static func mint(_ key: ServiceAccountKey, _ kind: TokenKind) -> String {
        try! TokenMinter(key: key).mint(kind).token
    }

    /// Signs `claims` as they are (no checks), with `key`.
    static func sign(
        _ key: ServiceAccountKey, _ claims: AuthorizationClaims, issuedAt: Int64? = nil, lifetime: Int64 = 600
    ) -> String {
        let now = issuedAt ?? Int64(Date().timeIntervalSince1970)
        let payload = FleetEngineClaims(
            issuer: key.clientEmail, subject: key.clientEmail, issuedAt: now, expiresAt: now + lifetime,
            authorization: claims)
        return try! TokenMinter(key: key).sign(payload)
    }
}
