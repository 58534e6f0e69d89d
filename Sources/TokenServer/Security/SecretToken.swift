import Crypto
import FleetAuthCodecs
import FleetTokens
import Foundation

/// High-entropy bearer secrets (session tokens, admin keys) and the hashes stored in their place.
///
/// A token is a prefix naming its use plus 256 random bits in base64url; only its SHA-256
/// is stored (a slow hash is not needed: nobody can guess 256 bits).
package enum SecretToken {
    /// The prefix of session tokens.
    package static let sessionPrefix = "fas_"
    /// The prefix of admin API keys.
    package static let adminKeyPrefix = "faa_"

    /// A new random token with `prefix`.
    package static func generate(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return prefix + Base64URL.encode(bytes)
    }

    /// The hex SHA-256 of `token`, the form in which it is stored and looked up (on every token
    /// request: hashed in place, no copy of the token, no table built per call).
    package static func hash(_ token: String) -> String {
        var token = token
        let digest = token.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
        return String(unsafeUninitializedCapacity: 2 * SHA256.byteCount) { hex in
            for (index, byte) in digest.enumerated() {
                hex[2 * index] = hexDigits[Int(byte >> 4)]
                hex[2 * index + 1] = hexDigits[Int(byte & 0xF)]
            }
            return 2 * SHA256.byteCount
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
