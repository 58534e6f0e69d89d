#if canImport(COpenSSLReference)
    import COpenSSLReference

    /// What `openssl speed rsa2048` times, in this process: an RSA-2048 key of OpenSSL's own
    /// libcrypto signing and verifying 36 bytes with PKCS #1 v1.5 padding, each through one context
    /// set up once. The reference the mint and verify benchmarks are measured against.
    final class OpenSSLReference {
        private let key: OpaquePointer
        private let signing: OpaquePointer
        private let verifying: OpaquePointer
        private let message = [UInt8](repeating: 0x5a, count: 36)
        private var signature = [UInt8](repeating: 0, count: 256)

        /// Generates the key and sets up both contexts; `nil` when libcrypto refuses any step.
        init?() {
            guard let generation = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, nil) else { return nil }
            defer { EVP_PKEY_CTX_free(generation) }
            var generated: OpaquePointer?
            guard EVP_PKEY_keygen_init(generation) == 1, EVP_PKEY_CTX_set_rsa_keygen_bits(generation, 2048) == 1,
                EVP_PKEY_keygen(generation, &generated) == 1, let key = generated
            else { return nil }
            guard let signing = EVP_PKEY_CTX_new(key, nil), let verifying = EVP_PKEY_CTX_new(key, nil) else {
                EVP_PKEY_free(key)
                return nil
            }
            self.key = key
            self.signing = signing
            self.verifying = verifying
            guard EVP_PKEY_sign_init(signing) == 1, EVP_PKEY_CTX_set_rsa_padding(signing, RSA_PKCS1_PADDING) == 1,
                EVP_PKEY_verify_init(verifying) == 1, EVP_PKEY_CTX_set_rsa_padding(verifying, RSA_PKCS1_PADDING) == 1,
                sign()
            else { return nil }
        }

        deinit {
            EVP_PKEY_CTX_free(signing)
            EVP_PKEY_CTX_free(verifying)
            EVP_PKEY_free(key)
        }

        /// Signs the message once; whether libcrypto did.
        @discardableResult
        func sign() -> Bool {
            var length = signature.count
            return EVP_PKEY_sign(signing, &signature, &length, message, message.count) == 1
        }

        /// Verifies the signature of the message once; whether it held.
        @discardableResult
        func verify() -> Bool {
            EVP_PKEY_verify(verifying, signature, signature.count, message, message.count) == 1
        }
    }
#endif
