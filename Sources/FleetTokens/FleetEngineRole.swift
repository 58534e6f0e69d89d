/// A Fleet Engine IAM role. The role of the service account that signs a token decides what
/// the token may do; the token's claims decide on which resources.
#if hasAttribute(nonexhaustive)
    @nonexhaustive  // more cases may come: switch with `@unknown default`
#endif
public enum FleetEngineRole: String, Sendable, Hashable, Codable, CaseIterable {
    // On-demand rides and deliveries.
    /// Driver SDK: updates its own vehicle and reads and updates trips assigned to it.
    case driverSDKUser = "roles/fleetengine.driverSdkUser"
    /// Consumer SDK: reads its own trip and searches vehicles approximately.
    case consumerSDKUser = "roles/fleetengine.consumerSdkUser"
    /// Full access to every on-demand resource (and, in the local Fleet Engine, delivery ones).
    case serviceSuperUser = "roles/fleetengine.serviceSuperUser"
    /// Read and write access to on-demand resources.
    case onDemandAdmin = "roles/fleetengine.ondemandAdmin"
    /// Read-only access to on-demand resources.
    case viewer = "roles/fleetengine.viewer"
    // Scheduled tasks.
    /// A delivery driver whose app may also update tasks.
    case deliveryTrustedDriver = "roles/fleetengine.deliveryTrustedDriver"
    /// A delivery driver whose app may only update its vehicle's location.
    case deliveryUntrustedDriver = "roles/fleetengine.deliveryUntrustedDriver"
    /// A delivery consumer following a shipment.
    case deliveryConsumer = "roles/fleetengine.deliveryConsumer"
    /// Read-only access to delivery vehicles and tasks.
    case deliveryFleetReader = "roles/fleetengine.deliveryFleetReader"
    /// Read and write access to delivery resources.
    case deliveryAdmin = "roles/fleetengine.deliveryAdmin"
    /// Every delivery vehicle and task method: what Google's sample backends sign their
    /// delivery server tokens with.
    case deliverySuperUser = "roles/fleetengine.deliverySuperUser"

    /// The short name used on the command line and in generated account ids, e.g. `driver`.
    public var shortName: String {
        switch self {
        case .driverSDKUser: "driver"
        case .consumerSDKUser: "consumer"
        case .serviceSuperUser: "server"
        case .onDemandAdmin: "admin"
        case .viewer: "viewer"
        case .deliveryTrustedDriver: "delivery-trusted-driver"
        case .deliveryUntrustedDriver: "delivery-untrusted-driver"
        case .deliveryConsumer: "delivery-consumer"
        case .deliveryFleetReader: "delivery-fleet-reader"
        case .deliveryAdmin: "delivery-admin"
        case .deliverySuperUser: "delivery-super-user"
        }
    }

    /// The role with the given short name (`driver`) or full name (`roles/fleetengine.driverSdkUser`).
    public init?(name: String) {
        if let role = FleetEngineRole(rawValue: name) ?? FleetEngineRole.allCases.first(where: { $0.shortName == name })
        {
            self = role
        } else {
            return nil
        }
    }

    /// The service-account id FleetAuth gives a key made for this role, e.g. `fe-driver`.
    /// Google allows 6 to 30 characters; every generated id fits.
    public var accountID: String { "fe-\(shortName)" }

    /// The role a FleetAuth-generated service account email stands for, found from its
    /// account id (`fe-driver@…` → driver), or `nil` for any other email.
    public init?(generatedAccountEmail email: String) {
        guard let at = email.firstIndex(of: "@") else { return nil }
        let accountID = email[..<at]
        guard let role = FleetEngineRole.allCases.first(where: { $0.accountID == accountID }) else { return nil }
        self = role
    }
}
