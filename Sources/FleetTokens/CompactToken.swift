import Crypto
import CryptoExtras
import Foundation

/// A compact JWT split into its three segments, with header and payload decoded from base64url.
struct CompactToken {
    /// The decoded header JSON.
    let header: Data
    /// The decoded payload JSON.
    let payload: Data
    /// The decoded signature bytes.
    let signature: Data
    /// SHA-256 of `header.payload`, the bytes the signature covers.
    let signingInputDigest: SHA256.Digest

    /// Splits and decodes `token`, refusing anything that is not three base64url segments.
    init(_ token: String) throws(TokenRefusal) {
        let bytes = token.utf8
        guard let firstDot = bytes.firstIndex(of: UInt8(ascii: ".")) else {
            throw .malformed("expected three base64url segments separated by '.', found one")
        }
        let afterFirst = bytes.index(after: firstDot)
        guard let secondDot = bytes[afterFirst...].firstIndex(of: UInt8(ascii: ".")) else {
            throw .malformed("expected three base64url segments separated by '.', found two")
        }
        let afterSecond = bytes.index(after: secondDot)
        guard !bytes[afterSecond...].contains(UInt8(ascii: ".")) else {
            throw .malformed("expected three base64url segments separated by '.', found more (encrypted tokens are not accepted)")
        }
        guard let header = Base64URL.decode(bytes[..<firstDot]), !header.isEmpty else { throw .malformed("header is not base64url") }
        guard let payload = Base64URL.decode(bytes[afterFirst..<secondDot]), !payload.isEmpty else { throw .malformed("payload is not base64url") }
        guard let signature = Base64URL.decode(bytes[afterSecond...]), !signature.isEmpty else { throw .malformed("signature is missing or not base64url") }
        self.header = header
        self.payload = payload
        self.signature = signature
        let signingInputLength = bytes.distance(from: bytes.startIndex, to: secondDot)
        var text = token
        self.signingInputDigest = text.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: $0[..<signingInputLength]))) }
    }

    /// Whether the RS256 signature verifies with `publicKey`.
    func signatureMatches(_ publicKey: _RSA.Signing.PublicKey) -> Bool {
        publicKey.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: signingInputDigest, padding: .insecurePKCS1v1_5)
    }
}
