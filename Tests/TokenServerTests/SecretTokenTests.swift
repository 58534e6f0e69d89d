import Testing

@testable import TokenServer

/// The stored form of session tokens and admin keys: what earlier versions stored must still
/// be found.
@Suite("Secret tokens")
struct SecretTokenTests {
    @Test("the stored hash is SHA-256 in lowercase hex, as earlier versions stored it")
    func hashIsSHA256Hex() {
        #expect(SecretToken.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SecretToken.hash("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("a token is its prefix and 256 random bits in base64url, and hashes to 64 hex digits")
    func generatedTokens() {
        let token = SecretToken.generate(prefix: SecretToken.sessionPrefix)
        #expect(token.hasPrefix("fas_") && token.count == 4 + 43)
        #expect(token != SecretToken.generate(prefix: SecretToken.sessionPrefix))
        #expect(
            SecretToken.hash(token).utf8.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            })
        #expect(SecretToken.hash(token).count == 64)
    }
}
