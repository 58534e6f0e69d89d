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
        case .deliveryServer: [.serviceSuperUser, .deliveryAdmin, .deliveryFleetReader]
        case .custom: Set(FleetEngineRole.allCases)
        }
    }
}
