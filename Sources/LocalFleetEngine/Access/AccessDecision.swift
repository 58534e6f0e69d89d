import FleetTokens

/// How much an allowed request may see or change.
package enum AccessGrant: Sendable, Hashable {
    /// Everything the operation offers (a role's limits on the fields it may set are
    /// decided by ``AccessPolicy``, as denials).
    case full
    /// Approximate vehicle positions only (a consumer's search).
    case approximate
}

/// The answer of ``AccessPolicy``: allowed, allowed once the trip is known to be the
/// driver's, or denied with the rule that denied it (Fleet Engine's 403 `PERMISSION_DENIED`).
package enum AccessDecision: Sendable, Hashable {
    /// The request may go on.
    case allowed(AccessGrant)
    /// A driver's request about a trip: allowed only if the trip is assigned to a vehicle the
    /// token's `vehicleid` claim covers. See ``resolved(tripVehicleID:)``.
    case allowedIfTripAssigned(vehicleClaim: String, grant: AccessGrant)
    /// A delivery consumer's request for tracking info with a `taskid` claim: allowed only
    /// if the task that answers is one the claim covers. See ``resolved(taskID:)``.
    case allowedIfTaskCovered(taskClaim: String)
    /// The request is refused; the message names the rule.
    case denied(String)

    /// What an allowed decision grants, or `nil` for a denial.
    package var grant: AccessGrant? {
        switch self {
        case .allowed(let grant), .allowedIfTripAssigned(_, let grant): grant
        case .allowedIfTaskCovered: .full
        case .denied: nil
        }
    }

    /// The final decision once the trip is looked up: `tripVehicleID` is the trip's vehicle, or
    /// `nil` when the trip does not exist or has no vehicle, which is denied just the same, so
    /// that a driver cannot tell a missing trip from someone else's.
    package func resolved(tripVehicleID: String?) -> AccessDecision {
        guard case .allowedIfTripAssigned(let claim, let grant) = self else { return self }
        if let tripVehicleID, AuthorizationClaims.value(claim, covers: tripVehicleID) {
            return .allowed(grant)
        }
        return .denied(
            "a driver token may act only on trips assigned to the vehicle in its vehicleid claim ('\(claim)')")
    }

    /// The final decision once the task answering a tracking id is looked up: `taskID` is that
    /// task's id, or `nil` when there is none, which is denied just the same.
    package func resolved(taskID: String?) -> AccessDecision {
        guard case .allowedIfTaskCovered(let claim) = self else { return self }
        if let taskID, AuthorizationClaims.value(claim, covers: taskID) { return .allowed(.full) }
        return .denied(
            "a delivery consumer token may read only the tracking info of the task in its taskid claim ('\(claim)')")
    }
}
