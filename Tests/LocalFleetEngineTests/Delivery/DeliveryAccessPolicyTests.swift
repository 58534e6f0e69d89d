import FleetTokens
import LocalFleetEngine
import Testing

/// The delivery permission table as a pure function: every role against every delivery method,
/// with the claims of its own token kind (and then with claims that cover nothing).
@Suite("Delivery access policy")
struct DeliveryAccessPolicyTests {
    let policy = AccessPolicy(providerID: "fleet")

    /// Each method, on resources the role-appropriate tokens below cover.
    static let operations: [(name: String, DeliveryOperation)] = [
        ("createVehicle", .createDeliveryVehicle(vehicleID: "dv")),
        ("getVehicle", .getDeliveryVehicle(vehicleID: "dv")),
        ("moveVehicle", .updateDeliveryVehicle(vehicleID: "dv", fields: [.lastLocation])),
        (
            "setStops",
            .updateDeliveryVehicle(vehicleID: "dv", fields: [.lastLocation, .remainingVehicleJourneySegments])
        ),
        ("deleteVehicle", .deleteDeliveryVehicle(vehicleID: "dv")), ("listVehicles", .listDeliveryVehicles),
        ("createTask", .createTask(taskID: "t")), ("batch", .batchCreateTasks(taskIDs: ["t", "u"])),
        ("getTask", .getTask(taskID: "t")),
        ("updateTask", .updateTask(taskID: "t")), ("deleteTask", .deleteTask(taskID: "t")), ("listTasks", .listTasks),
        ("tracking", .getTaskTrackingInfo(trackingID: "ship")),
    ]

    /// What each role may do with claims of its kind: the methods it is allowed.
    static let allowed: [(FleetEngineRole, AuthorizationClaims, Set<String>)] = {
        let server = AuthorizationClaims(deliveryVehicleID: "*", taskID: "*", trackingID: "*")
        let everything = Set(operations.map(\.name))
        return [
            (.deliverySuperUser, server, everything),
            (.deliveryAdmin, server, everything),
            (.serviceSuperUser, server, everything),
            (.deliveryFleetReader, server, ["getVehicle", "listVehicles", "getTask", "listTasks", "tracking"]),
            (
                .deliveryTrustedDriver, AuthorizationClaims(deliveryVehicleID: "dv", taskID: "t"),
                ["createVehicle", "getVehicle", "moveVehicle", "setStops", "createTask", "updateTask"]
            ),
            (.deliveryUntrustedDriver, AuthorizationClaims(deliveryVehicleID: "dv"), ["getVehicle", "moveVehicle"]),
            (.deliveryConsumer, AuthorizationClaims(trackingID: "ship"), ["tracking"]),
            (
                .driverSDKUser,
                AuthorizationClaims(vehicleID: "*", deliveryVehicleID: "*", taskID: "*", trackingID: "*"), []
            ),
            (
                .consumerSDKUser,
                AuthorizationClaims(tripID: "*", deliveryVehicleID: "*", taskID: "*", trackingID: "*"), []
            ),
            (.onDemandAdmin, server, []),
            (.viewer, server, []),
        ]
    }()

    @Test func everyRoleMayDoWhatTheTableSaysAndNothingElse() {
        for (role, claims, allowed) in Self.allowed {
            for (name, operation) in Self.operations {
                let decision = policy.decide(role: role, claims: claims, .delivery(operation), provider: "fleet")
                #expect((decision.grant != nil) == allowed.contains(name), "\(role) \(name): \(decision)")
            }
        }
    }

    @Test func claimsThatDoNotCoverTheResourceAreRefusedEvenToSuperUsers() {
        let elsewhere = AuthorizationClaims(
            deliveryVehicleID: "other", taskID: "other", taskIDs: ["t"], trackingID: "other")
        for role in [
            FleetEngineRole.deliverySuperUser, .deliveryAdmin, .deliveryTrustedDriver, .deliveryUntrustedDriver,
            .deliveryConsumer,
        ] {
            for (name, operation) in Self.operations {
                let decision = policy.decide(role: role, claims: elsewhere, .delivery(operation), provider: "fleet")
                #expect(decision.grant == nil, "\(role) \(name) with claims for other resources: \(decision)")
            }
        }
    }

    @Test func aBatchNeedsEveryTaskIdInTaskidsOrAWildcard() {
        let batch = FleetOperation.delivery(.batchCreateTasks(taskIDs: ["t", "u"]))
        func decide(_ claims: AuthorizationClaims) -> AccessDecision {
            policy.decide(role: .deliverySuperUser, claims: claims, batch, provider: "fleet")
        }
        #expect(decide(AuthorizationClaims(taskIDs: ["t", "u", "v"])) == .allowed(.full))
        #expect(decide(AuthorizationClaims(taskIDs: ["*"])) == .allowed(.full))
        #expect(decide(AuthorizationClaims(taskID: "*")) == .allowed(.full))
        #expect(
            decide(AuthorizationClaims(taskIDs: ["t"]))
                == .denied(
                    "the token's taskids claim does not list task 'u' of the batch; it may not create 2 tasks at once"))
    }

    @Test func aConsumerWithATaskClaimIsDecidedOnTheTaskThatAnswers() {
        let decision = policy.decide(
            role: .deliveryConsumer, claims: AuthorizationClaims(taskID: "t"),
            .delivery(.getTaskTrackingInfo(trackingID: "ship")), provider: "fleet")
        #expect(decision.resolved(taskID: "t") == .allowed(.full))
        #expect(decision.resolved(taskID: "u").grant == nil)
        #expect(decision.resolved(taskID: nil).grant == nil)
    }

    @Test func anUntrustedDriversStopChangeIsDeniedNamingTheFields() {
        let decision = policy.decide(
            role: .deliveryUntrustedDriver, claims: AuthorizationClaims(deliveryVehicleID: "dv"),
            .delivery(.updateDeliveryVehicle(vehicleID: "dv", fields: [.remainingVehicleJourneySegments])),
            provider: "fleet")
        #expect(
            decision
                == .denied(
                    "an untrusted delivery driver token may set only lastLocation of a DeliveryVehicle; updateMask also names remainingVehicleJourneySegments, which needs a trusted driver or server token"
                ))
    }
}
