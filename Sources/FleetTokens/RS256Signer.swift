import Crypto
import CryptoExtras
import Foundation

/// Makes RS256 signatures (RSASSA-PKCS1-v1_5 over a SHA-256 digest) with one private key,
/// through swift-crypto: the one place FleetTokens, the Google stand-in and the fuzz targets sign.
///
/// Until 2026-12-07 it signed through the system's OpenSSL 3 on Linux; measured end to end, that
/// gained no token a second (docs/architecture.md, the ledger).
package struct RS256Signer: Sendable {
    private let key: _RSA.Signing.PrivateKey

    /// Prepares `privateKey` for signing; `nil` if the signing library refuses it.
    package init?(_ privateKey: _RSA.Signing.PrivateKey) {
        self.key = privateKey
    }

    /// The signature of `digest`, or `nil` if the signing library fails.
    package func signature(for digest: SHA256Digest) -> Data? {
        try? key.signature(for: digest, padding: .insecurePKCS1v1_5).rawRepresentation
    }
}
