import FleetServerSupport

/// TripService's methods, checked in the same order as the vehicle methods. A driver's access
/// to a trip depends on the trip's vehicle, so it is decided on the stored trip, and a driver
/// gets 403 for a trip that does not exist just as for one that is not its own.
extension FleetEngineCore {
    /// CreateTrip: trip `tripID` from the body `readBody` gives, once saved.
    func createTrip(_ call: FleetCall, tripID: String, readBody: () async throws -> Trip) async throws -> Trip {
        let trip = try await checkedCreation(of: Trip.self, call, id: tripID, readBody: readBody)
        return try await state.createTrip(tripID, trip)
    }

    /// GetTrip.
    func getTrip(_ call: FleetCall, tripID: String) async throws -> Trip {
        let decision = try authorize(.getTrip(tripID: tripID), call)
        let trip = await state.trip(tripID)
        if case .denied(let rule) = decision.resolved(tripVehicleID: trip?.vehicleId) { throw APIError.permissionDenied(rule) }
        try Self.requireValidID(tripID, "the trip id")
        guard let trip else { throw APIError.notFound("trip '\(tripID)' does not exist") }
        return trip
    }

    /// UpdateTrip: the fields `updateMask` names, from the body `readBody` gives, once saved.
    func updateTrip(_ call: FleetCall, tripID: String, updateMask: String?, readBody: () async throws -> Trip) async throws -> Trip {
        let update = try await checkedUpdate(
            of: Trip.self, call, id: tripID, updateMask: updateMask,
            authorized: { decision in
                if case .denied(let rule) = decision.resolved(tripVehicleID: await state.trip(tripID)?.vehicleId) {
                    throw APIError.permissionDenied(rule)
                }
            },
            readBody: readBody
        )
        return try await state.updateTrip(tripID, with: update.resource, fields: update.fields, decision: update.decision)
    }
}

extension FleetEngineCore {
    /// ReportBillableTrip: checks the report `readBody` gives and takes note of it in the log
    /// (the local Fleet Engine bills nobody).
    func reportBillableTrip(_ call: FleetCall, billableTripID: String, readBody: () async throws -> BillableTripReport) async throws {
        _ = try authorize(.reportBillableTrip(tripID: billableTripID), call)
        try Self.requireValidID(billableTripID, "the billable trip id")
        let report = try await readBody()
        try Self.validate { () throws(InvalidArgument) in try report.validate() }
        call.logger.info("billable trip reported", metadata: ["trip": "\(billableTripID)", "countryCode": "\(report.countryCode ?? "")"])
    }
}
