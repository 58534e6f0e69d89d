import Crypto
import CryptoExtras
import FleetAuthCodecs
import FleetTokens
import Foundation

/// Builds tokens by hand, including ones no honest minter would make.
public enum Forge {
    /// `object` as a token segment: sorted JSON in base64url.
    public static func segment(_ object: Any) -> String {
        Base64URL.encode(
            try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed]))
    }

    /// The RS256 signature of `signingInput` by `key`, as a token segment.
    public static func rs256(_ signingInput: String, with key: ServiceAccountKey) -> String {
        let signature = try! key.privateKey.backing.signature(
            for: SHA256.hash(data: Data(signingInput.utf8)), padding: .insecurePKCS1v1_5)
        return Base64URL.encode(signature.rawRepresentation)
    }

    /// A token of `header` and `payload`, RS256-signed by `key`.
    public static func token(header: Any, payload: Any, signedBy key: ServiceAccountKey) -> String {
        let input = segment(header) + "." + segment(payload)
        return input + "." + rs256(input, with: key)
    }

    /// The header an honest minter writes for `key`.
    public static func header(for key: ServiceAccountKey) -> [String: Any] {
        ["alg": "RS256", "typ": "JWT", "kid": key.privateKeyID]
    }

    /// An honest driver payload for `key`, issued at `now` (the present by default) and living
    /// `lifetime` seconds, changed by `changes`.
    public static func driverPayload(
        for key: ServiceAccountKey, now: Int64 = Int64(Date().timeIntervalSince1970), lifetime: Int64 = 600,
        vehicleID: Any = "v1", changes: [String: Any] = [:]
    ) -> [String: Any] {
        let payload: [String: Any] = [
            "iss": key.clientEmail, "sub": key.clientEmail, "aud": FleetEngineClaims.fleetEngineAudience,
            "iat": now, "exp": now + lifetime, "authorization": ["vehicleid": vehicleID],
        ]
        return payload.merging(changes) { $1 }
    }
}
