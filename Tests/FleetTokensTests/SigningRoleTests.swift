import FleetTokens
import Testing

/// FleetTokens' role table: which Fleet Engine roles may sign each kind of token, and the
/// narrowest of them, which the token server signs its accounts' tokens with.
@Suite("Signing roles")
struct SigningRoleTests {
    static let kinds: [TokenKind] = [
        .driver(vehicleID: "v"), .consumer(tripID: "t"), .server, .fleetReader,
        .trustedDeliveryDriver(deliveryVehicleID: "d"), .untrustedDeliveryDriver(deliveryVehicleID: "d"),
        .deliveryConsumer(trackingID: "k"), .deliveryConsumerTask(taskID: "x"), .deliveryServer,
        .custom(AuthorizationClaims(vehicleID: "v")),
    ]

    @Test("the narrowest signing role is one of the kind's signing roles", arguments: kinds)
    func narrowestIsASigningRole(kind: TokenKind) {
        #expect(kind.signingRoles.contains(kind.narrowestSigningRole))
    }

    @Test(
        "an app's token needs its own role alone, which signs no server token",
        arguments: [
            (TokenKind.driver(vehicleID: "v"), FleetEngineRole.driverSDKUser),
            (.consumer(tripID: "t"), .consumerSDKUser),
            (.untrustedDeliveryDriver(deliveryVehicleID: "d"), .deliveryUntrustedDriver),
        ])
    func appTokens(kind: TokenKind, role: FleetEngineRole) {
        #expect(kind.signingRoles == [role])
        let serverKinds = Self.kinds.filter { $0.isServerSide && $0.name != "custom" }
        #expect(serverKinds.allSatisfy { !$0.signingRoles.contains(role) })
    }
}
