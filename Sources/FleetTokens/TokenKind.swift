/// The kinds of Fleet Engine token, as java-fleetengine-auth names them, each with the
/// authorization claims it carries.
#if hasAttribute(nonexhaustive)
    @nonexhaustive  // more cases may come: switch with `@unknown default`
#endif
public enum TokenKind: Sendable, Hashable {
    /// Driver SDK token for one vehicle: `{vehicleid: V}`.
    case driver(vehicleID: String)
    /// Consumer SDK token for one trip: `{tripid: T}`.
    case consumer(tripID: String)
    /// Server token for every vehicle and trip: `{vehicleid: "*", tripid: "*"}`.
    case server
    /// Fleet reader token: every id `"*"`.
    case fleetReader
    /// Trusted delivery driver: `{deliveryvehicleid: D}`, plus `taskid` when given.
    case trustedDeliveryDriver(deliveryVehicleID: String, taskID: String? = nil)
    /// Untrusted delivery driver: `{deliveryvehicleid: D}`.
    case untrustedDeliveryDriver(deliveryVehicleID: String)
    /// Delivery consumer following a shipment: `{trackingid: K}`.
    case deliveryConsumer(trackingID: String)
    /// Delivery consumer allowed one task: `{taskid: X}`.
    case deliveryConsumerTask(taskID: String)
    /// Delivery server token: every delivery id `"*"`.
    case deliveryServer
    /// Any other set of claims, for trusted server code that knows what it is doing.
    case custom(AuthorizationClaims)

    /// A short, stable name for logs and metrics, e.g. `driver`; a delivery driver's is spelled
    /// as Fleet Engine's role for it (`delivery-trusted-driver`).
    public var name: String { kindName?.rawValue ?? "custom" }

    /// Whether the kind is meant for trusted servers only (it carries wildcards).
    public var isServerSide: Bool {
        switch self {
        case .server, .fleetReader, .deliveryServer, .custom: true
        default: false
        }
    }

    /// The `authorization` claims a token of this kind carries.
    public var authorizationClaims: AuthorizationClaims {
        let all = FleetEngineIdentifier.wildcard
        switch self {
        case .driver(let vehicleID):
            return AuthorizationClaims(vehicleID: vehicleID)
        case .consumer(let tripID):
            return AuthorizationClaims(tripID: tripID)
        case .server:
            return AuthorizationClaims(vehicleID: all, tripID: all)
        case .fleetReader:
            return AuthorizationClaims(
                vehicleID: all, tripID: all, deliveryVehicleID: all, taskID: all, trackingID: all)
        case .trustedDeliveryDriver(let deliveryVehicleID, let taskID):
            return AuthorizationClaims(deliveryVehicleID: deliveryVehicleID, taskID: taskID)
        case .untrustedDeliveryDriver(let deliveryVehicleID):
            return AuthorizationClaims(deliveryVehicleID: deliveryVehicleID)
        case .deliveryConsumer(let trackingID):
            return AuthorizationClaims(trackingID: trackingID)
        case .deliveryConsumerTask(let taskID):
            return AuthorizationClaims(taskID: taskID)
        case .deliveryServer:
            return AuthorizationClaims(deliveryVehicleID: all, taskID: all, trackingID: all)
        case .custom(let claims):
            return claims
        }
    }

    /// Why a token of this kind must not be minted, or `nil` when it may.
    ///
    /// Client kinds need plain ids (never the wildcard); a custom kind needs at least one claim.
    public var problem: String? {
        if case .custom(let claims) = self {
            return claims.isEmpty ? "custom claims name no resource" : nil
        }
        guard !isServerSide else { return nil }
        for (claim, id) in authorizationClaims.namedIDs {
            if id == FleetEngineIdentifier.wildcard {
                return
                    "a \(name) token may not carry the wildcard \"*\" in \(claim); wildcards are for server-side tokens only"
            }
            if let problem = FleetEngineIdentifier.problem(with: id) {
                return "\(claim) \(problem)"
            }
        }
        return nil
    }
}
