import Testing
@testable import TokenServer

@Suite("Account rules")
struct AccountRulesTests {
    @Test("usernames", arguments: ["ann", "driver-17", "a.b_c@d+e", String(repeating: "x", count: 64)])
    func goodUsernames(name: String) {
        #expect(AccountRules.problem(withUsername: name) == nil)
    }

    @Test("bad usernames", arguments: ["", "has space", "slash/", "x\u{0}y", "émile", String(repeating: "x", count: 65)])
    func badUsernames(name: String) {
        #expect(AccountRules.problem(withUsername: name) != nil)
    }

    @Test("passwords: 8 characters to 72 bytes, no NUL; messages never repeat them")
    func passwords() {
        #expect(AccountRules.problem(withPassword: "12345678") == nil)
        #expect(AccountRules.problem(withPassword: String(repeating: "p", count: 72)) == nil)
        for bad in ["short", String(repeating: "p", count: 73), "pass\u{0}word!"] {
            let problem = AccountRules.problem(withPassword: bad)
            #expect(problem != nil)
            #expect(problem?.contains(bad) == false)
        }
    }

    @Test("roles by name; each role's resource kind needs that role")
    func roles() throws {
        #expect(try AccountRules.role(named: "delivery-driver") == .deliveryDriver)
        #expect(throws: (any Error).self) { try AccountRules.role(named: "admin") }
        for kind in ResourceKind.allCases {
            #expect(kind.accountRole.resourceKind == kind)
        }
        #expect(AccountRole.fleetReader.resourceKind == nil)
    }
}
