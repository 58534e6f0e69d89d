import FleetTokens
import Testing
import TokenServer

/// The token server's accounts sign with the role FleetTokens says their tokens need: the two
/// tables must agree, or Fleet Engine would deny every token an account gets.
@Suite("Role table")
struct RoleTableTests {
    @Test(arguments: ResourceKind.allCases)
    func assignedAccountsSignWithAFittingRole(kind: ResourceKind) {
        #expect(kind.tokenKind(id: "x").signingRoles.contains(kind.accountRole.signingRole))
    }

    @Test func fleetReadersSignWithAFittingRole() {
        #expect(TokenKind.fleetReader.signingRoles.contains(AccountRole.fleetReader.signingRole))
    }

    @Test func driverTokensNeedTheDriverRoleAlone() {
        #expect(TokenKind.driver(vehicleID: "v").signingRoles == [.driverSDKUser])
        #expect(!TokenKind.server.signingRoles.contains(.driverSDKUser))
    }
}
