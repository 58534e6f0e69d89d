import FleetTokens

/// Warns when a token kind is signed by an account whose role Fleet Engine would not let use it.
enum RoleFit {
    /// The roles that can use each kind of token.
    static func roles(for kind: TokenKind) -> Set<FleetEngineRole> {
        switch kind {
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

    /// A warning when `signerEmail` is a FleetAuth-generated account whose role does not fit `kind`.
    static func warning(kind: TokenKind, signerEmail: String) -> String? {
        guard let role = FleetEngineRole(generatedAccountEmail: signerEmail), !roles(for: kind).contains(role) else { return nil }
        return "\(signerEmail) has role \(role.rawValue); Fleet Engine will deny a \(kind.name) token signed by it"
    }
}
