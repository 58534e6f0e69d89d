import FleetAuthCodecs
import FleetTokens
import Foundation
import TestSupport

/// Unsigned but real-looking JWTs (`header.payload.signature`, base64url JSON) with chosen
/// `iat` and `exp`, as the fake token server hands out.
enum TestJWT {
    /// A token issued at `issuedAt`, expiring at `expiresAt` (no `exp` claim when `nil`),
    /// with `authorization` as its private claims and `serial` making each token distinct.
    static func make(
        issuedAt: Date,
        expiresAt: Date?,
        authorization: [String: String],
        serial: Int
    ) -> String {
        var claims: [String: Any] = [
            "iss": "fleet-engine-test@example.iam.gserviceaccount.com", "aud": FleetEngineClaims.fleetEngineAudience,
            "iat": Int(issuedAt.timeIntervalSince1970), "jti": "token-\(serial)", "authorization": authorization,
        ]
        if let expiresAt { claims["exp"] = Int(expiresAt.timeIntervalSince1970) }
        let signature = Data("not-a-real-signature-\(serial)".utf8)
        return [
            Forge.segment(["alg": "RS256", "typ": "JWT", "kid": "test-key"]), Forge.segment(claims),
            Base64URL.encode(signature),
        ]
        .joined(separator: ".")
    }

    /// The `exp` claim of a token made by ``make(issuedAt:expiresAt:authorization:serial:)``.
    static func expiry(of token: String) -> Date? {
        let payload = token.split(separator: ".")[1]
        struct Claims: Decodable { let exp: Int? }
        guard let data = Base64URL.decode(payload),
            let exp = try? JSONDecoder().decode(Claims.self, from: data).exp
        else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(exp))
    }
}
