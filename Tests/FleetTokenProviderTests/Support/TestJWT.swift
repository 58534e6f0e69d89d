import FleetTokens
import Foundation

/// Unsigned but real-looking JWTs (`header.payload.signature`, base64url JSON) with chosen
/// `iat` and `exp`, as the fake token server hands out.
enum TestJWT {
    private struct Header: Encodable {
        let alg = "RS256"
        let typ = "JWT"
        let kid = "test-key"
    }

    private struct Claims: Encodable {
        let iss = "fleet-engine-test@example.iam.gserviceaccount.com"
        let aud = "https://fleetengine.googleapis.com/"
        let iat: Int
        let exp: Int?
        let jti: String
        let authorization: [String: String]
    }

    /// A token issued at `issuedAt`, expiring at `expiresAt` (no `exp` claim when `nil`),
    /// with `authorization` as its private claims and `serial` making each token distinct.
    static func make(
        issuedAt: Date,
        expiresAt: Date?,
        authorization: [String: String],
        serial: Int
    ) -> String {
        let claims = Claims(
            iat: Int(issuedAt.timeIntervalSince1970),
            exp: expiresAt.map { Int($0.timeIntervalSince1970) },
            jti: "token-\(serial)",
            authorization: authorization
        )
        let signature = Data("not-a-real-signature-\(serial)".utf8)
        return [encode(Header()), encode(claims), Base64URL.encode(signature)].joined(separator: ".")
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

    private static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Base64URL.encode(try! encoder.encode(value))
    }
}
