import Crypto
import CryptoExtras
import FleetAuthCodecs
import Foundation

/// A compact JWT split into its three segments, with header and payload decoded from base64url.
package struct CompactToken {
    /// The decoded header JSON.
    package let header: Data
    /// The decoded payload JSON.
    package let payload: Data
    /// The decoded signature bytes.
    package let signature: Data
    /// SHA-256 of `header.payload`, the bytes the signature covers.
    package let signingInputDigest: SHA256.Digest

    /// Splits and decodes `token`, refusing anything that is not three base64url segments.
    package init(_ token: String) throws(TokenRefusal) {
        var text = token
        let split: Result<CompactToken, TokenRefusal> = text.withUTF8 { bytes in
            do throws(TokenRefusal) {
                return .success(try CompactToken(bytes: bytes))
            } catch {
                return .failure(error)
            }
        }
        self = try split.get()
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) throws(TokenRefusal) {
        let dot = UInt8(ascii: ".")
        guard let firstDot = bytes.firstIndex(of: dot) else {
            throw .malformed("expected three base64url segments separated by '.', found one")
        }
        guard let secondDot = bytes[(firstDot + 1)...].firstIndex(of: dot) else {
            throw .malformed("expected three base64url segments separated by '.', found two")
        }
        guard !bytes[(secondDot + 1)...].contains(dot) else {
            throw .malformed(
                "expected three base64url segments separated by '.', found more (encrypted tokens are not accepted)")
        }
        func segment(_ range: Range<Int>) -> Data? {
            Base64URL.decode(UnsafeBufferPointer(rebasing: bytes[range])).flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let header = segment(0..<firstDot) else { throw .malformed("header is not base64url") }
        guard let payload = segment((firstDot + 1)..<secondDot) else { throw .malformed("payload is not base64url") }
        guard let signature = segment((secondDot + 1)..<bytes.count) else {
            throw .malformed("signature is missing or not base64url")
        }
        self.header = header
        self.payload = payload
        self.signature = signature
        self.signingInputDigest = SHA256.hash(
            data: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[..<secondDot])))
    }

    /// Whether the RS256 signature verifies with `publicKey`.
    func signatureMatches(_ publicKey: RSAPublicKey) -> Bool {
        publicKey.backing.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature), for: signingInputDigest,
            padding: .insecurePKCS1v1_5)
    }

    /// Whether the signature verifies with `key` by the key's own algorithm (the caller has
    /// checked that the header's `alg` names it). An ES256 signature is the raw 64 bytes
    /// `r || s` (RFC 7518 §3.4), not DER.
    package func signatureMatches(_ key: JWSPublicKey) -> Bool {
        switch key {
        case .rs256(let publicKey):
            return signatureMatches(publicKey)
        case .es256(let publicKey):
            guard signature.count == 64, let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
            else { return false }
            return publicKey.isValidSignature(ecdsa, for: signingInputDigest)
        }
    }
}
