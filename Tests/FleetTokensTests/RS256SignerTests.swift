import Crypto
import CryptoExtras
import Foundation
import TestSupport
import Testing

@testable import FleetTokens

@Suite("RS256 signer")
struct RS256SignerTests {
    @Test("PKCS #1 v1.5 signatures that the public key verifies, the same bytes each time, one per digest")
    func deterministicValidSignatures() throws {
        for key in [TestKeys.driver, TestKeys.consumer] {
            let signer = try #require(RS256Signer(key.privateKey.backing))
            var seen: Set<Data> = []
            for message in ["", "header.payload", String(repeating: "x", count: 5_000)] {
                let digest = SHA256.hash(data: Data(message.utf8))
                let signature = try #require(signer.signature(for: digest))
                #expect(signer.signature(for: digest) == signature)
                #expect(signature.count == 256)
                seen.insert(signature)
                #expect(
                    key.publicKey.backing.isValidSignature(
                        .init(rawRepresentation: signature), for: digest, padding: .insecurePKCS1v1_5))
            }
            #expect(seen.count == 3)
        }
    }

    @Test("Signing from many threads at once gives valid signatures")
    func concurrentSigning() async throws {
        let key = TestKeys.server
        let signer = try #require(RS256Signer(key.privateKey.backing))
        let allValid = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let digest = SHA256.hash(data: Data("message \(index)".utf8))
                    guard let signature = signer.signature(for: digest) else { return false }
                    return key.publicKey.backing.isValidSignature(
                        .init(rawRepresentation: signature), for: digest, padding: .insecurePKCS1v1_5)
                }
            }
            return await group.allSatisfy { $0 }
        }
        #expect(allValid)
    }
}
