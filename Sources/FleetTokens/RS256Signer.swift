import Crypto
import CryptoExtras
import Foundation

/// Makes RS256 signatures (RSASSA-PKCS1-v1_5 over a SHA-256 digest) with one private key.
///
/// On Linux the signature comes from the system's OpenSSL 3 libcrypto, which signs faster than
/// swift-crypto's BoringSSL on current x86 CPUs; elsewhere from swift-crypto. PKCS #1 v1.5
/// signatures are deterministic, so both give the same bytes for the same key and digest.
package struct RS256Signer: Sendable {
    #if canImport(COpenSSL)
        private let key: OpenSSLKey
    #else
        private let key: _RSA.Signing.PrivateKey
    #endif

    /// Prepares `privateKey` for signing; `nil` if the signing library refuses it.
    package init?(_ privateKey: _RSA.Signing.PrivateKey) {
        #if canImport(COpenSSL)
            guard let key = OpenSSLKey(privateKeyDER: privateKey.derRepresentation) else { return nil }
            self.key = key
        #else
            self.key = privateKey
        #endif
    }

    /// The signature of `digest`, or `nil` if the signing library fails.
    package func signature(for digest: SHA256Digest) -> Data? {
        #if canImport(COpenSSL)
            key.signature(for: digest)
        #else
            try? key.signature(for: digest, padding: .insecurePKCS1v1_5).rawRepresentation
        #endif
    }
}
