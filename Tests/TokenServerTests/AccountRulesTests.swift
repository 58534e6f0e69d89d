import FleetTokens
import Foundation
import Testing

@testable import TokenServer

@Suite("Account rules")
struct AccountRulesTests {
    @Test("usernames", arguments: ["ann", "driver-17", "a.b_c@d+e", String(repeating: "x", count: 64)])
    func goodUsernames(name: String) {
        #expect(AccountRules.problem(withUsername: name) == nil)
    }

    @Test(
        "bad usernames", arguments: ["", "has space", "slash/", "x\u{0}y", "émile", String(repeating: "x", count: 65)])
    func badUsernames(name: String) {
        #expect(AccountRules.problem(withUsername: name) != nil)
    }

    @Test("passwords: 8 to 1024 characters (code points), no NUL; messages never repeat them")
    func passwords() {
        #expect(AccountRules.problem(withPassword: "12345678") == nil)
        #expect(AccountRules.problem(withPassword: String(repeating: "p", count: 73)) == nil)
        #expect(AccountRules.problem(withPassword: String(repeating: "🔑", count: 1024)) == nil)
        #expect(AccountRules.problem(withPassword: String(repeating: "e\u{0301}", count: 4)) == nil)
        for bad in ["short", "e\u{0301}e\u{0301}e\u{0301}", String(repeating: "p", count: 1025), "pass\u{0}word!"] {
            let problem = AccountRules.problem(withPassword: bad)
            #expect(problem != nil)
            #expect(problem?.contains(bad) == false)
        }
    }

    @Test("passwords over bcrypt's 72 bytes count whole: one differing only past byte 72 does not match")
    func longPasswords() async throws {
        let hasher = PasswordHasher(cost: 4)
        let long = String(repeating: "p", count: 100)
        let hash = try await hasher.hash(long)
        #expect(try await hasher.verify(long, hash: hash))
        #expect(try await hasher.verify(String(repeating: "p", count: 99) + "q", hash: hash) == false)
        #expect(try await hasher.verify(String(repeating: "p", count: 72), hash: hash) == false)
        let short = try await hasher.hash("correct horse")
        #expect(try await hasher.verify("correct horse", hash: short))
    }

    @Test(
        "identity issuers: the API document's pattern, word for word, and what it lets through",
        arguments: [
            ("https://accounts.google.com", true), ("https://id.example.com:8443/realms/fleet", true),
            ("http://127.0.0.1:9999/", true),
            ("https://securetoken.google.com/my-project", true), ("https://a/%7Euser", true),
            ("http://example.com", false), ("https://a?x=1", false), ("https://a#f", false), ("https://u@a", false),
            ("https://a:65536", false), ("https://a/%zz", false), ("https://", false), ("ftp://a", false),
        ])
    func issuers(issuer: String, accepted: Bool) throws {
        let problem = AccountRules.problem(withIdentity: LinkedIdentity(issuer: issuer, subject: "user-1"))
        #expect((problem == nil) == accepted, "\(issuer): \(problem ?? "accepted")")
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../docs/token-server.openapi.yaml")
        let yamlQuoted = AccountRules.issuerPattern.replacingOccurrences(of: "\\", with: "\\\\")
        #expect(try String(contentsOf: document, encoding: .utf8).contains("pattern: \"\(yamlQuoted)\""))
    }

    @Test(
        "identity subjects: 1 to 255 code points, no control character",
        arguments: [
            ("user-1", true), (String(repeating: "é", count: 255), true), ("", false),
            (String(repeating: "e\u{0301}", count: 128), false),
            ("a\u{85}b", false), ("a\tb", false),
        ])
    func subjects(subject: String, accepted: Bool) {
        #expect(
            (AccountRules.problem(withIdentity: LinkedIdentity(issuer: "https://a", subject: subject)) == nil)
                == accepted)
    }

    @Test("roles by name; each role's resource kind needs that role")
    func roles() throws {
        #expect(try AccountRules.role(named: "delivery-driver") == .deliveryDriver)
        // Spelled as Fleet Engine's role; the former spelling is still taken.
        #expect(try AccountRules.role(named: "delivery-trusted-driver") == .trustedDeliveryDriver)
        #expect(try AccountRules.role(named: "trusted-delivery-driver") == .trustedDeliveryDriver)
        #expect(AccountRole.trustedDeliveryDriver.description == "delivery-trusted-driver")
        #expect(throws: (any Error).self) { try AccountRules.role(named: "admin") }
        for kind in ResourceKind.allCases {
            #expect(kind.accountRoles.allSatisfy { $0.resourceKind == kind })
        }
        #expect(AccountRole.fleetReader.resourceKind == nil)
    }
}
