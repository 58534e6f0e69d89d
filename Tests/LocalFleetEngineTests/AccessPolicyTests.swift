import FleetTokens
import LocalFleetEngine
import Testing

/// The permission table as a pure function, every role against every operation.
@Suite("Access policy")
struct AccessPolicyTests {
    let policy = AccessPolicy(providerID: "fleet")

    static let operations: [FleetOperation] = [
        .createVehicle(vehicleID: "v1"), .getVehicle(vehicleID: "v1"), .updateVehicle(vehicleID: "v1"), .searchVehicles,
        .createTrip(tripID: "t1"), .getTrip(tripID: "t1"), .updateTrip(tripID: "t1"),
    ]
    static let deliveryRoles: [FleetEngineRole] = [
        .deliveryTrustedDriver, .deliveryUntrustedDriver, .deliveryConsumer, .deliveryFleetReader, .deliveryAdmin,
    ]
    static let serverClaims = AuthorizationClaims(vehicleID: "*", tripID: "*")

    func decide(
        _ role: FleetEngineRole, _ claims: AuthorizationClaims, _ operation: FleetOperation, provider: String = "fleet"
    ) -> AccessDecision {
        policy.decide(role: role, claims: claims, operation, provider: provider)
    }

    @Test(arguments: [FleetEngineRole.serviceSuperUser, .onDemandAdmin], operations)
    func serverAndAdminMayDoEverythingTheirClaimsCover(role: FleetEngineRole, operation: FleetOperation) {
        #expect(decide(role, Self.serverClaims, operation) == .allowed(.full))
    }

    @Test(arguments: [FleetEngineRole.serviceSuperUser, .onDemandAdmin, .viewer], operations)
    func serverClaimsMustCoverTheResource(role: FleetEngineRole, operation: FleetOperation) {
        let narrow = AuthorizationClaims(vehicleID: "v2", tripID: "t2")
        let decision = decide(role, narrow, operation)
        guard case .denied = decision else {
            Issue.record("\(role) with \(narrow) was allowed to \(operation)"); return
        }
        let none = decide(role, AuthorizationClaims(), operation)
        guard case .denied = none else { Issue.record("\(role) without claims was allowed to \(operation)"); return }
    }

    @Test(arguments: operations)
    func viewerReadsOnly(operation: FleetOperation) {
        let decision = decide(.viewer, Self.serverClaims, operation)
        if operation.isWrite {
            #expect(decision == .denied("role roles/fleetengine.viewer is read-only; it may not \(operation)"))
        } else {
            #expect(decision == .allowed(.full))
        }
    }

    @Test func driverOwnVehicle() {
        let own = AuthorizationClaims(vehicleID: "v1")
        #expect(decide(.driverSDKUser, own, .getVehicle(vehicleID: "v1")) == .allowed(.full))
        #expect(
            decide(.driverSDKUser, own, .updateVehicle(vehicleID: "v1", fields: [.lastLocation, .vehicleState]))
                == .allowed(.full))
        for operation: FleetOperation in [.getVehicle(vehicleID: "v2"), .updateVehicle(vehicleID: "v2")] {
            #expect(
                decide(.driverSDKUser, own, operation)
                    == .denied(
                        "the token's vehicleid claim ('v1') does not cover the resource; it may not \(operation)"))
        }
        #expect(
            decide(.driverSDKUser, AuthorizationClaims(tripID: "t1"), .getVehicle(vehicleID: "v1"))
                == .denied("the token has no vehicleid claim, which it needs to get vehicle 'v1'"))
    }

    @Test func driverTripsDependOnTheTripsVehicle() {
        let own = AuthorizationClaims(vehicleID: "v1")
        let read = decide(.driverSDKUser, own, .getTrip(tripID: "t1"))
        let write = decide(.driverSDKUser, own, .updateTrip(tripID: "t1"))
        #expect(read == .allowedIfTripAssigned(vehicleClaim: "v1", grant: .full))
        #expect(write == .allowedIfTripAssigned(vehicleClaim: "v1", grant: .full))
        #expect(read.resolved(tripVehicleID: "v1") == .allowed(.full))
        #expect(write.resolved(tripVehicleID: "v1") == .allowed(.full))
        for vehicle in ["v2", nil] {
            guard case .denied = read.resolved(tripVehicleID: vehicle) else {
                Issue.record("trip on \(vehicle ?? "nothing") allowed"); continue
            }
        }
        guard case .denied = decide(.driverSDKUser, AuthorizationClaims(), .getTrip(tripID: "t1")) else {
            Issue.record("driver without vehicleid allowed a trip")
            return
        }
    }

    @Test(arguments: [FleetOperation.createVehicle(vehicleID: "v1"), .createTrip(tripID: "t1"), .searchVehicles])
    func driverMayNotCreateOrSearch(operation: FleetOperation) {
        guard case .denied(let rule) = decide(.driverSDKUser, AuthorizationClaims(vehicleID: "*"), operation) else {
            Issue.record("driver allowed to \(operation)")
            return
        }
        #expect(rule.contains("needs a server token"))
    }

    @Test(arguments: operations)
    func consumerReadsOwnTripAndSearchesApproximately(operation: FleetOperation) {
        let decision = decide(.consumerSDKUser, AuthorizationClaims(tripID: "t1"), operation)
        switch operation {
        case .getTrip: #expect(decision == .allowed(.full))
        case .searchVehicles: #expect(decision == .allowed(.approximate))
        default:
            #expect(
                decision
                    == .denied(
                        "a consumer token may not \(operation); it may only read its own trip and search vehicles"))
        }
        if case .getTrip = operation {
            guard case .denied = decide(.consumerSDKUser, AuthorizationClaims(tripID: "t2"), operation) else {
                Issue.record("consumer read another trip")
                return
            }
        }
    }

    @Test(arguments: deliveryRoles, operations)
    func deliveryRolesHaveNoOnDemandAccess(role: FleetEngineRole, operation: FleetOperation) {
        let all = AuthorizationClaims(vehicleID: "*", tripID: "*", deliveryVehicleID: "*", taskID: "*", trackingID: "*")
        #expect(
            decide(role, all, operation)
                == .denied("role \(role.rawValue) is for scheduled-task (delivery) resources; it may not \(operation)"))
    }

    @Test(arguments: FleetEngineRole.allCases, operations)
    func anotherProviderIsAlwaysDenied(role: FleetEngineRole, operation: FleetOperation) {
        let all = AuthorizationClaims(vehicleID: "*", tripID: "*", deliveryVehicleID: "*", taskID: "*", trackingID: "*")
        #expect(
            decide(role, all, operation, provider: "other")
                == .denied("this Fleet Engine serves provider 'fleet'; tokens are not accepted for provider 'other'"))
    }

    @Test func searchNeedsAWildcardVehicleClaimForServers() {
        guard
            case .denied = decide(.serviceSuperUser, AuthorizationClaims(vehicleID: "v1", tripID: "*"), .searchVehicles)
        else {
            Issue.record("server token for one vehicle may search every vehicle")
            return
        }
    }

    /// A driver's field limits are the role's, refused as every other limit is (403, before
    /// anything is looked up), naming the fields; a server token sets any field.
    @Test func driverFieldsLimitWhatMayBeWritten() {
        let own = AuthorizationClaims(vehicleID: "v1")
        #expect(
            decide(.driverSDKUser, own, .updateVehicle(vehicleID: "v1", fields: [.lastLocation, .attributes]))
                == .denied(
                    "a driver token may set only lastLocation, vehicleState of a Vehicle; updateMask also names attributes"
                ))
        #expect(
            decide(.driverSDKUser, own, .updateTrip(tripID: "t1", fields: [.tripStatus, .vehicleId]))
                == .denied("a driver token may set only tripStatus of a Trip; updateMask also names vehicleId"))
        #expect(
            decide(.driverSDKUser, own, .updateTrip(tripID: "t1", fields: [.tripStatus]))
                == .allowedIfTripAssigned(vehicleClaim: "v1", grant: .full))
        #expect(
            decide(
                .serviceSuperUser, AuthorizationClaims(vehicleID: "*", tripID: "*"),
                .updateVehicle(vehicleID: "v1", fields: Set(VehicleField.allCases))) == .allowed(.full))
    }
}
