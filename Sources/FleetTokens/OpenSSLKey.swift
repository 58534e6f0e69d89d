#if canImport(COpenSSL)
import Crypto
import COpenSSL
import Foundation

/// An OpenSSL 3 `EVP_PKEY` holding one RSA private key, freed with its owner, that makes RS256
/// signatures: RSASSA-PKCS1-v1_5 over a SHA-256 digest.
///
/// Only signing goes through OpenSSL: for checking signatures swift-crypto's BoringSSL is the
/// faster of the two (OpenSSL 3's per-call context costs more than its faster public-key
/// operation saves). `@unchecked Sendable`: the key is never modified after creation, and
/// OpenSSL 3 lets one `EVP_PKEY` sign on many threads at once (each call has its own
/// `EVP_PKEY_CTX`). Every failure path clears OpenSSL's per-thread error queue.
final class OpenSSLKey: @unchecked Sendable {
    private let key: OpaquePointer

    /// Reads a DER private key (PKCS #1 or PKCS #8); `nil` if OpenSSL refuses it.
    init?(privateKeyDER der: Data) {
        let key: OpaquePointer? = der.withUnsafeBytes { raw in
            var cursor = UnsafePointer(raw.bindMemory(to: UInt8.self).baseAddress)
            return d2i_AutoPrivateKey(nil, &cursor, raw.count)
        }
        guard let key else {
            ERR_clear_error()
            return nil
        }
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// The RS256 signature of `digest`; `nil` if OpenSSL fails.
    func signature(for digest: SHA256Digest) -> Data? {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else {
            ERR_clear_error()
            return nil
        }
        defer { EVP_PKEY_CTX_free(context) }
        var length = Int(EVP_PKEY_get_size(key))
        var signature = Data(count: length)
        let signed = EVP_PKEY_sign_init(context) == 1
            && EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1
            && EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) == 1
            && signature.withUnsafeMutableBytes { output in
                digest.withUnsafeBytes { input in
                    EVP_PKEY_sign(context, output.bindMemory(to: UInt8.self).baseAddress, &length, input.bindMemory(to: UInt8.self).baseAddress, input.count)
                }
            } == 1
        guard signed else {
            ERR_clear_error()
            return nil
        }
        signature.count = length
        return signature
    }
}
#endif
