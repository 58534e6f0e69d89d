#if canImport(COpenSSL)
    import Crypto
    import COpenSSL
    import Foundation
    import FleetAuthLocking

    /// An OpenSSL 3 `EVP_PKEY` holding one RSA private key, freed with its owner, that makes RS256
    /// signatures: RSASSA-PKCS1-v1_5 over a SHA-256 digest.
    ///
    /// Only signing goes through OpenSSL: for checking signatures swift-crypto's BoringSSL is as
    /// fast on this path (measured with pooled OpenSSL contexts too). Contexts set up for signing
    /// are kept in a small pool and reused (setting one up costs a few percent of a signature):
    /// each call takes one, or makes one when none is idle, and puts it back. A context whose
    /// operation failed is freed instead, and every failure path clears OpenSSL's per-thread error
    /// queue.
    ///
    /// `@unchecked Sendable`: the key is never modified after creation, OpenSSL 3 lets one
    /// `EVP_PKEY` sign on many threads at once, and a pooled context is only ever used by the one
    /// call that took it out of the pool (under `idle`'s lock).
    final class OpenSSLKey: @unchecked Sendable {
        /// The most set-up contexts kept idle (more than the threads that sign at once is waste).
        static let maximumIdleContexts = 16

        private let key: OpaquePointer
        private let idle = Locked<[OpaquePointer]>([])

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

        deinit {
            idle.withLock { contexts in contexts.forEach { EVP_PKEY_CTX_free($0) } }
            EVP_PKEY_free(key)
        }

        /// The RS256 signature of `digest`; `nil` if OpenSSL fails.
        func signature(for digest: SHA256Digest) -> Data? {
            withContext { context in
                var length = Int(EVP_PKEY_get_size(key))
                var signature = Data(count: length)
                let signed = signature.withUnsafeMutableBytes { output in
                    digest.withUnsafeBytes { input in
                        EVP_PKEY_sign(
                            context, output.bindMemory(to: UInt8.self).baseAddress, &length,
                            input.bindMemory(to: UInt8.self).baseAddress, input.count)
                    }
                }
                guard signed == 1 else { return nil }
                signature.count = length
                return signature
            }
        }

        /// Runs `body` with a context set up for signing with this key, taken from the pool or made;
        /// puts it back when `body` succeeded, frees it when `body` returned `nil`.
        private func withContext<Result>(_ body: (OpaquePointer) -> Result?) -> Result? {
            guard let context = idle.withLock({ $0.popLast() }) ?? makeContext() else { return nil }
            guard let result = body(context) else {
                EVP_PKEY_CTX_free(context)
                ERR_clear_error()
                return nil
            }
            let kept = idle.withLock { contexts in
                guard contexts.count < Self.maximumIdleContexts else { return false }
                contexts.append(context)
                return true
            }
            if !kept { EVP_PKEY_CTX_free(context) }
            return result
        }

        /// A context set up for RS256 signing with this key; `nil` if OpenSSL fails.
        private func makeContext() -> OpaquePointer? {
            guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else {
                ERR_clear_error()
                return nil
            }
            let ready =
                EVP_PKEY_sign_init(context) == 1
                && EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1
                && EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) == 1
            guard ready else {
                EVP_PKEY_CTX_free(context)
                ERR_clear_error()
                return nil
            }
            return context
        }
    }
#endif
