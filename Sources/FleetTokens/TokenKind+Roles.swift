extension TokenKind {
    /// The Fleet Engine roles whose accounts may sign this kind of token and have Fleet Engine
    /// honour it: a driver token needs a Driver SDK user, a server token a super user, admin
    /// or viewer, and so on. A custom token may be signed by any role.
    public var signingRoles: Set<FleetEngineRole> {
        switch self {
        case .driver: [.driverSDKUser]
        case .consumer: [.consumerSDKUser]
        case .server: [.serviceSuperUser, .onDemandAdmin, .viewer]
        case .fleetReader: [.serviceSuperUser, .viewer, .deliveryFleetReader]
        case .trustedDeliveryDriver: [.deliveryTrustedDriver]
        case .untrustedDeliveryDriver: [.deliveryUntrustedDriver]
        case .deliveryConsumer, .deliveryConsumerTask: [.deliveryConsumer]
        case .deliveryServer: [.serviceSuperUser, .deliverySuperUser, .deliveryAdmin, .deliveryFleetReader]
        case .custom: Set(FleetEngineRole.allCases)
        }
    }

    /// The one role of ``signingRoles`` that grants the least beyond this kind of token: what
    /// an issuer that signs only this kind should sign with (an app's driver tokens with a
    /// Driver SDK user, a dashboard's fleet reader tokens with a delivery fleet reader, never a
    /// super user).
    package var narrowestSigningRole: FleetEngineRole {
        switch self {
        case .driver: .driverSDKUser
        case .consumer: .consumerSDKUser
        case .server: .onDemandAdmin
        case .fleetReader: .deliveryFleetReader
        case .trustedDeliveryDriver: .deliveryTrustedDriver
        case .untrustedDeliveryDriver: .deliveryUntrustedDriver
        case .deliveryConsumer, .deliveryConsumerTask: .deliveryConsumer
        case .deliveryServer: .deliverySuperUser
        case .custom: .serviceSuperUser
        }
    }
}
