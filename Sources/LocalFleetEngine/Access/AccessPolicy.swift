import FleetTokens

/// Fleet Engine's permission table for vehicles and trips: the signer's role decides what a
/// token may do, its claims decide on which resources. A pure function, decided before any
/// resource is looked up, so that a refusal never tells whether the resource exists.
///
/// | call | server / admin | viewer | driver | consumer |
/// | --- | --- | --- | --- | --- |
/// | create vehicle, create trip | claim covers id | no | no | no |
/// | get vehicle | `vehicleid` covers | `vehicleid` covers | own `vehicleid` | no |
/// | update vehicle | `vehicleid` covers, any field | no | own `vehicleid`, `lastLocation` and `vehicleState` | no |
/// | update vehicle attributes, delete vehicle | `vehicleid` covers | no | no | no |
/// | list vehicles, search vehicles | `vehicleid` is `*` | `vehicleid` is `*` | no | search only: any `tripid`, approximate |
/// | get trip | `tripid` covers | `tripid` covers | trip assigned to own `vehicleid` | own `tripid` |
/// | update trip | `tripid` covers | no | trip assigned to own `vehicleid`, `tripStatus` | no |
/// | delete trip, report billable trip | `tripid` covers | no | no | no |
/// | search trips | `tripid` is `*` | `tripid` is `*` | own `vehicleid`'s trips | no |
///
/// Delivery (scheduled tasks) roles have no access to on-demand vehicles and trips; the
/// delivery methods follow their own table (`DeliveryAccessPolicy.swift`).
package struct AccessPolicy: Sendable, Hashable {
    /// The provider (Cloud project id) this Fleet Engine serves.
    package let providerID: String

    /// A policy for the Fleet Engine of `providerID`.
    package init(providerID: String) {
        self.providerID = providerID
    }

    /// Decides whether `token` may do `operation` on a resource of `provider`.
    package func decide(_ token: VerifiedToken, _ operation: FleetOperation, provider: String) -> AccessDecision {
        decide(role: token.role, claims: token.authorization, operation, provider: provider)
    }

    /// Decides whether a token signed by an account with `role` and carrying `claims` may do
    /// `operation` on a resource of `provider`.
    package func decide(
        role: FleetEngineRole, claims: AuthorizationClaims, _ operation: FleetOperation, provider: String
    ) -> AccessDecision {
        guard provider == providerID else {
            return .denied(
                "this Fleet Engine serves provider '\(providerID)'; tokens are not accepted for provider '\(provider)'")
        }
        if case .delivery(let delivery) = operation { return decide(role: role, claims: claims, delivery) }
        switch role {
        case .serviceSuperUser, .onDemandAdmin:
            return serverDecision(claims, operation, readOnly: false, role: role)
        case .viewer:
            return serverDecision(claims, operation, readOnly: true, role: role)
        case .driverSDKUser:
            return driverDecision(claims, operation)
        case .consumerSDKUser:
            return consumerDecision(claims, operation)
        case .deliveryTrustedDriver, .deliveryUntrustedDriver, .deliveryConsumer, .deliveryFleetReader, .deliveryAdmin,
            .deliverySuperUser:
            return .denied("role \(role.rawValue) is for scheduled-task (delivery) resources; it may not \(operation)")
        }
    }

    private func serverDecision(
        _ claims: AuthorizationClaims, _ operation: FleetOperation, readOnly: Bool, role: FleetEngineRole
    ) -> AccessDecision {
        if readOnly, operation.isWrite {
            return .denied("role \(role.rawValue) is read-only; it may not \(operation)")
        }
        switch operation {
        case .createVehicle(let id), .getVehicle(let id), .updateVehicle(let id, _), .updateVehicleAttributes(let id),
            .deleteVehicle(let id):
            return Self.claim("vehicleid", claims.vehicleID, covers: id, for: operation) ?? .allowed(.full)
        case .createTrip(let id), .getTrip(let id), .updateTrip(let id, _), .deleteTrip(let id),
            .reportBillableTrip(let id):
            return Self.claim("tripid", claims.tripID, covers: id, for: operation) ?? .allowed(.full)
        case .searchVehicles, .listVehicles:
            guard claims.vehicleID == FleetEngineIdentifier.wildcard else {
                return .denied("to \(operation), which reads every vehicle, the token's vehicleid claim must be \"*\"")
            }
            return .allowed(.full)
        case .searchTrips:
            guard claims.tripID == FleetEngineIdentifier.wildcard else {
                return .denied("to \(operation), which reads every trip, the token's tripid claim must be \"*\"")
            }
            return .allowed(.full)
        case .delivery:
            return .denied("\(operation) is a delivery method, decided by the delivery table")
        }
    }

    /// The denial of an update whose mask names a field beyond `allowed`, the fields `who`
    /// may set, or `nil` when it names none: a limit of the token's role, so 403 like every
    /// other, decided before anything is looked up. `needing` says what the others need.
    static func limit<Field: UpdatableField>(
        _ fields: Set<Field>, to allowed: Set<Field>, for who: String, needing: String? = nil
    ) -> AccessDecision? {
        let beyond = fields.subtracting(allowed)
        guard !beyond.isEmpty else { return nil }
        let may = allowed.map(\.rawValue).sorted().joined(separator: ", ")
        let named = beyond.map(\.rawValue).sorted().joined(separator: ", ")
        return .denied(
            "\(who) may set only \(may) of a \(Field.resourceName); updateMask also names \(named)"
                + (needing.map { ", which needs \($0)" } ?? ""))
    }

    private func driverDecision(_ claims: AuthorizationClaims, _ operation: FleetOperation) -> AccessDecision {
        switch operation {
        case .getVehicle(let id):
            return Self.claim("vehicleid", claims.vehicleID, covers: id, for: operation) ?? .allowed(.full)
        case .updateVehicle(let id, let fields):
            return Self.claim("vehicleid", claims.vehicleID, covers: id, for: operation)
                ?? Self.limit(fields, to: VehicleField.driverWritable, for: "a driver token") ?? .allowed(.full)
        case .getTrip, .updateTrip:
            guard let vehicleClaim = claims.vehicleID else {
                return .denied("a driver token needs a vehicleid claim to \(operation)")
            }
            if case .updateTrip(_, let fields) = operation,
                let denied = Self.limit(fields, to: TripField.driverWritable, for: "a driver token")
            {
                return denied
            }
            return .allowedIfTripAssigned(vehicleClaim: vehicleClaim, grant: .full)
        case .searchTrips(let vehicleID):
            guard let vehicleClaim = claims.vehicleID, let vehicleID,
                AuthorizationClaims.value(vehicleClaim, covers: vehicleID)
            else {
                return .denied(
                    "a driver token may search only the trips of the vehicle in its vehicleid claim; name it in vehicleId"
                )
            }
            return .allowed(.full)
        case .createVehicle, .createTrip, .searchVehicles, .listVehicles, .updateVehicleAttributes, .deleteVehicle,
            .deleteTrip, .reportBillableTrip,
            .delivery:
            return .denied(
                "a driver token may not \(operation); that needs a server token (serviceSuperUser or ondemandAdmin)")
        }
    }

    private func consumerDecision(_ claims: AuthorizationClaims, _ operation: FleetOperation) -> AccessDecision {
        switch operation {
        case .getTrip(let id):
            return Self.claim("tripid", claims.tripID, covers: id, for: operation) ?? .allowed(.full)
        case .searchVehicles:
            guard claims.tripID != nil else {
                return .denied("a consumer token needs a tripid claim to search vehicles")
            }
            return .allowed(.approximate)
        case .createVehicle, .getVehicle, .updateVehicle, .updateVehicleAttributes, .deleteVehicle, .listVehicles,
            .createTrip, .updateTrip,
            .deleteTrip, .searchTrips, .reportBillableTrip, .delivery:
            return .denied("a consumer token may not \(operation); it may only read its own trip and search vehicles")
        }
    }

    /// A denial when `value` (the token's `name` claim) does not cover `id`, else `nil`.
    static func claim(_ name: String, _ value: String?, covers id: String, for operation: FleetOperation)
        -> AccessDecision?
    {
        guard let value else { return .denied("the token has no \(name) claim, which it needs to \(operation)") }
        guard AuthorizationClaims.value(value, covers: id) else {
            return .denied(
                "the token's \(name) claim ('\(value)') does not cover the resource; it may not \(operation)")
        }
        return nil
    }
}
