import FleetTokens
import Testing
import TokenServer

/// The token server's accounts sign with the role FleetTokens' table gives their tokens: a
/// role Fleet Engine honours for them, and the narrowest one.
@Suite("Role table")
struct RoleTableTests {
    @Test(
        "each account role signs with the narrowest role its tokens accept",
        arguments: [
            (AccountRole.driver, FleetEngineRole.driverSDKUser), (.consumer, .consumerSDKUser),
            (.deliveryDriver, .deliveryUntrustedDriver), (.deliveryConsumer, .deliveryConsumer),
            (.fleetReader, .deliveryFleetReader),
        ])
    func signingRoles(account: AccountRole, role: FleetEngineRole) {
        #expect(account.signingRole == role)
        #expect(account.tokenKind(id: "x").signingRoles.contains(account.signingRole))
    }

    @Test("an assigned account's token is the one its resource kind gives", arguments: ResourceKind.allCases)
    func assignedTokens(kind: ResourceKind) {
        #expect(kind.accountRoles[0].tokenKind(id: "x") == kind.tokenKind(id: "x"))
    }
}
