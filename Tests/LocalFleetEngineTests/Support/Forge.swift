import Crypto
import CryptoExtras
import FleetTokens
import Foundation

/// Builds tokens by hand, including ones no honest minter would make.
enum Forge {
    static func segment(_ object: Any) -> String {
        Base64URL.encode(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed]))
    }

    static func rs256(_ signingInput: String, with key: ServiceAccountKey) -> String {
        let signature = try! key.privateKey.backing.signature(for: SHA256.hash(data: Data(signingInput.utf8)), padding: .insecurePKCS1v1_5)
        return Base64URL.encode(signature.rawRepresentation)
    }

    /// A token of `header` and `payload`, RS256-signed by `key`.
    static func token(header: Any, payload: Any, signedBy key: ServiceAccountKey) -> String {
        let input = segment(header) + "." + segment(payload)
        return input + "." + rs256(input, with: key)
    }

    /// The header an honest minter writes for `key`.
    static func header(for key: ServiceAccountKey) -> [String: Any] {
        ["alg": "RS256", "typ": "JWT", "kid": key.privateKeyID]
    }

    /// An honest driver payload for `key`, changed by `changes`.
    static func driverPayload(for key: ServiceAccountKey, vehicleID: Any = "v1", changes: [String: Any] = [:]) -> [String: Any] {
        let now = Int64(Date().timeIntervalSince1970)
        let payload: [String: Any] = [
            "iss": key.clientEmail, "sub": key.clientEmail, "aud": FleetEngineClaims.fleetEngineAudience,
            "iat": now, "exp": now + 600, "authorization": ["vehicleid": vehicleID],
        ]
        return payload.merging(changes) { $1 }
    }
}
