import FleetTokens

/// Fleet Engine's permission table for delivery vehicles and tasks, after Google's IAM roles
/// (each role's permissions) and its JWT rules (each method's claim). Decided, like the
/// on-demand table, before any resource is looked up.
///
/// | call | super user, admin | fleet reader | trusted driver | untrusted driver | consumer |
/// | --- | --- | --- | --- | --- | --- |
/// | create, get, update delivery vehicle | `deliveryvehicleid` covers | get only | own `deliveryvehicleid` | get; update `lastLocation` only | no |
/// | delete delivery vehicle | `deliveryvehicleid` covers | no | no | no | no |
/// | list delivery vehicles | `deliveryvehicleid` is `*` | `deliveryvehicleid` is `*` | no | no | no |
/// | create, update task | `taskid` covers | no | `taskid` covers | no | no |
/// | get task | `taskid` covers | `taskid` covers | no | no | no |
/// | delete task | `taskid` covers | no | no | no | no |
/// | batch create tasks | `taskids` has every id, or is `["*"]` (or `taskid` is `*`) | no | no | no | no |
/// | list tasks | `taskid` is `*` | `taskid` is `*` | no | no | no |
/// | get task tracking info | `trackingid` covers | `trackingid` covers | no | no | own `trackingid`, or `taskid` of the task |
///
/// Super user means `deliverySuperUser` and `serviceSuperUser` (which this engine lets act on
/// both halves of Fleet Engine); on-demand roles get nothing of delivery resources.
extension AccessPolicy {
    /// Decides whether a token signed by an account with `role` and carrying `claims` may do
    /// the delivery `operation`.
    func decide(role: FleetEngineRole, claims: AuthorizationClaims, _ operation: DeliveryOperation) -> AccessDecision {
        switch role {
        case .serviceSuperUser, .deliverySuperUser, .deliveryAdmin:
            return Self.serverDecision(claims, operation)
        case .deliveryFleetReader:
            guard !operation.isWrite else {
                return .denied("role \(role.rawValue) is read-only; it may not \(operation)")
            }
            return Self.serverDecision(claims, operation)
        case .deliveryTrustedDriver:
            return Self.trustedDriverDecision(claims, operation)
        case .deliveryUntrustedDriver:
            return Self.untrustedDriverDecision(claims, operation)
        case .deliveryConsumer:
            return Self.consumerDecision(claims, operation)
        case .driverSDKUser, .consumerSDKUser, .onDemandAdmin, .viewer:
            return .denied(
                "role \(role.rawValue) is for on-demand resources (vehicles and trips); it may not \(operation)")
        }
    }

    private static func serverDecision(_ claims: AuthorizationClaims, _ operation: DeliveryOperation) -> AccessDecision
    {
        let wildcard = FleetEngineIdentifier.wildcard
        switch operation {
        case .createDeliveryVehicle(let id), .getDeliveryVehicle(let id), .updateDeliveryVehicle(let id, _),
            .deleteDeliveryVehicle(let id):
            return claim("deliveryvehicleid", claims.deliveryVehicleID, covers: id, for: .delivery(operation))
                ?? .allowed(.full)
        case .createTask(let id), .getTask(let id), .updateTask(let id), .deleteTask(let id):
            return claim("taskid", claims.taskID, covers: id, for: .delivery(operation)) ?? .allowed(.full)
        case .getTaskTrackingInfo(let id):
            return claim("trackingid", claims.trackingID, covers: id, for: .delivery(operation)) ?? .allowed(.full)
        case .batchCreateTasks(let ids):
            if claims.taskID == wildcard { return .allowed(.full) }
            guard let listed = claims.taskIDs else {
                return .denied(
                    "to \(operation), the token's taskids claim must list every task id of the batch, or be [\"*\"]")
            }
            if listed == [wildcard] { return .allowed(.full) }
            let missing = ids.filter { !listed.contains($0) }
            guard missing.isEmpty else {
                return .denied(
                    "the token's taskids claim does not list task '\(missing[0])' of the batch; it may not \(operation)"
                )
            }
            return .allowed(.full)
        case .listDeliveryVehicles:
            guard claims.deliveryVehicleID == wildcard else {
                return .denied(
                    "to \(operation), which reads every delivery vehicle, the token's deliveryvehicleid claim must be \"*\""
                )
            }
            return .allowed(.full)
        case .listTasks:
            guard claims.taskID == wildcard else {
                return .denied("to \(operation), which reads every task, the token's taskid claim must be \"*\"")
            }
            return .allowed(.full)
        }
    }

    private static func trustedDriverDecision(_ claims: AuthorizationClaims, _ operation: DeliveryOperation)
        -> AccessDecision
    {
        switch operation {
        case .createDeliveryVehicle(let id), .getDeliveryVehicle(let id), .updateDeliveryVehicle(let id, _):
            return claim("deliveryvehicleid", claims.deliveryVehicleID, covers: id, for: .delivery(operation))
                ?? .allowed(.full)
        case .createTask(let id), .updateTask(let id):
            return claim("taskid", claims.taskID, covers: id, for: .delivery(operation)) ?? .allowed(.full)
        case .deleteDeliveryVehicle, .listDeliveryVehicles, .batchCreateTasks, .getTask, .deleteTask, .listTasks,
            .getTaskTrackingInfo:
            return .denied(
                "a trusted delivery driver token may not \(operation); that needs a delivery server token (deliverySuperUser or deliveryAdmin)"
            )
        }
    }

    private static func untrustedDriverDecision(_ claims: AuthorizationClaims, _ operation: DeliveryOperation)
        -> AccessDecision
    {
        switch operation {
        case .getDeliveryVehicle(let id):
            return claim("deliveryvehicleid", claims.deliveryVehicleID, covers: id, for: .delivery(operation))
                ?? .allowed(.full)
        case .updateDeliveryVehicle(let id, let fields):
            return AccessPolicy.limit(
                fields, to: DeliveryVehicleField.driverWritable, for: "an untrusted delivery driver token",
                needing: "a trusted driver or server token")
                ?? claim("deliveryvehicleid", claims.deliveryVehicleID, covers: id, for: .delivery(operation))
                ?? .allowed(.full)
        case .createDeliveryVehicle, .deleteDeliveryVehicle, .listDeliveryVehicles, .createTask, .batchCreateTasks,
            .getTask, .updateTask,
            .deleteTask, .listTasks, .getTaskTrackingInfo:
            return .denied(
                "an untrusted delivery driver token may not \(operation); it may only read its own vehicle and update its location"
            )
        }
    }

    private static func consumerDecision(_ claims: AuthorizationClaims, _ operation: DeliveryOperation)
        -> AccessDecision
    {
        switch operation {
        case .getTaskTrackingInfo(let id):
            if let trackingClaim = claims.trackingID {
                return claim("trackingid", trackingClaim, covers: id, for: .delivery(operation)) ?? .allowed(.full)
            }
            guard let taskClaim = claims.taskID else {
                return .denied("a delivery consumer token needs a trackingid (or taskid) claim to \(operation)")
            }
            return .allowedIfTaskCovered(taskClaim: taskClaim)
        case .createDeliveryVehicle, .getDeliveryVehicle, .updateDeliveryVehicle, .deleteDeliveryVehicle,
            .listDeliveryVehicles, .createTask,
            .batchCreateTasks, .getTask, .updateTask, .deleteTask, .listTasks:
            return .denied(
                "a delivery consumer token may not \(operation); it may only get the tracking info of its own shipment")
        }
    }
}
