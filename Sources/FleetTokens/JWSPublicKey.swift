import Crypto
import CryptoExtras
import FleetAuthCodecs
import Foundation

/// A public key that checks JWS signatures, tied to the one algorithm it may be used with, so
/// that a token can never pick how its key is read (no key confusion): an RSA key checks
/// only RS256, a P-256 key only ES256, and nothing checks `none` or HMAC.
package enum JWSPublicKey: Sendable {
    /// RSASSA-PKCS1-v1_5 with SHA-256 (2048-bit keys or larger).
    case rs256(RSAPublicKey)
    /// ECDSA on P-256 with SHA-256.
    case es256(P256.Signing.PublicKey)

    /// The `alg` this key checks.
    package var algorithm: String {
        switch self {
        case .rs256: JOSEHeader.rs256
        case .es256: JOSEHeader.es256
        }
    }
}

extension JSONWebKey {
    /// The key as a signature checker: an RSA key for RS256 or a P-256 key for ES256, or `nil`
    /// for a key of another kind or use (e.g. `"use": "enc"`, `RS384`, `Ed25519`), which a
    /// verifier skips. Throws when a key of a supported kind has unusable parameters.
    package func publicKey() throws(JSONWebKeySetError) -> JWSPublicKey? {
        guard (use ?? "sig") == "sig" else { return nil }
        switch keyType {
        case "RSA":
            guard (algorithm ?? JOSEHeader.rs256) == JOSEHeader.rs256 else { return nil }
            guard let modulus = modulus.flatMap({ Base64URL.decode($0[...]) }),
                let exponent = exponent.flatMap({ Base64URL.decode($0[...]) }),
                let key = try? _RSA.Signing.PublicKey(n: modulus, e: exponent)
            else {
                throw .unusableKey(
                    keyID: keyID, problem: "n and e are not a base64url RSA public key of 2048 bits or more")
            }
            return .rs256(RSAPublicKey(key))
        case "EC":
            guard curve == "P-256", (algorithm ?? JOSEHeader.es256) == JOSEHeader.es256 else { return nil }
            guard let x = x.flatMap({ Base64URL.decode($0[...]) }), let y = y.flatMap({ Base64URL.decode($0[...]) }),
                x.count == 32, y.count == 32,
                let key = try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
            else {
                throw .unusableKey(keyID: keyID, problem: "x and y are not the base64url coordinates of a P-256 point")
            }
            return .es256(key)
        default:
            return nil
        }
    }
}
