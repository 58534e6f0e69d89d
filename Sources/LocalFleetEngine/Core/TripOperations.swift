import FleetAuthServerHTTP

/// TripService's methods, checked in the same order as the vehicle methods. A driver's access
/// to a trip depends on the trip's vehicle, so it is decided on the stored trip, and a driver
/// gets 403 for a trip that does not exist just as for one that is not its own.
extension FleetEngineCore {
    /// CreateTrip: trip `tripID` from the body `readBody` gives, once saved.
    func createTrip(_ call: FleetCall, tripID: String, readBody: () throws -> Trip) async throws -> Trip {
        let trip = try checkedCreation(of: Trip.self, call, id: tripID, readBody: readBody)
        return try await state.createTrip(tripID, trip).saved()
    }

    /// GetTrip.
    func getTrip(_ call: FleetCall, tripID: String) throws -> Trip {
        let decision = try authorize(.getTrip(tripID: tripID), call)
        let trip = state.trip(tripID)
        if case .denied(let rule) = decision.resolved(tripVehicleID: trip?.vehicleID) {
            throw APIError.permissionDenied(rule)
        }
        try Self.requireValidID(tripID, "the trip id")
        guard let trip else { throw APIError.notFound("trip '\(tripID)' does not exist") }
        return trip
    }

    /// UpdateTrip: the fields `updateMask` names, from the body `readBody` gives, once saved.
    func updateTrip(_ call: FleetCall, tripID: String, updateMask: String?, readBody: () throws -> Trip) async throws
        -> Trip
    {
        let update = try checkedUpdate(
            of: Trip.self, call, id: tripID, updateMask: updateMask,
            authorized: { decision in
                if case .denied(let rule) = decision.resolved(tripVehicleID: state.trip(tripID)?.vehicleID) {
                    throw APIError.permissionDenied(rule)
                }
            },
            readBody: readBody
        )
        return try await state.updateTrip(
            tripID, with: update.resource, fields: update.fields, decision: update.decision
        ).saved()
    }
}

extension FleetEngineCore {
    /// ReportBillableTrip: checks the report `readBody` gives and takes note of it in the log
    /// (the local Fleet Engine bills nobody).
    func reportBillableTrip(_ call: FleetCall, billableTripID: String, readBody: () throws -> BillableTripReport) throws
    {
        _ = try authorize(.reportBillableTrip(tripID: billableTripID), call)
        try Self.requireValidID(billableTripID, "the billable trip id")
        let report = try readBody()
        try Self.validate { () throws(InvalidArgument) in try report.validate() }
        call.logger.info(
            "billable trip reported", metadata: ["trip": "\(billableTripID)", "countryCode": "\(report.countryCode)"])
    }
}

extension FleetEngineCore {
    /// DeleteTrip: removes a trip that is finished or assigned to no vehicle, once saved.
    func deleteTrip(_ call: FleetCall, tripID: String) async throws {
        _ = try authorize(.deleteTrip(tripID: tripID), call)
        try Self.requireValidID(tripID, "the trip id")
        try await state.deleteTrip(tripID).saved()
    }

    /// SearchTrips: a page of trips, by id, of one vehicle or of all. The query is read before
    /// the permission check, since a driver's permission depends on the vehicle it names.
    func searchTrips(_ call: FleetCall, readQuery: () throws -> SearchTripsRequest) throws -> SearchTripsResponse {
        let query = try readQuery()
        let vehicleID = query.vehicleID.isEmpty ? nil : query.vehicleID
        _ = try authorize(.searchTrips(vehicleID: vehicleID), call)
        if let vehicleID { try Self.requireValidID(vehicleID, "vehicleId") }
        try Self.validate { () throws(InvalidArgument) in try query.validate() }
        let activeOnly = query.activeTripsOnly
        let found =
            if let vehicleID {
                state.trips(ofVehicle: vehicleID) { !activeOnly || $0.isActive }
            } else {
                state.trips { !activeOnly || $0.isActive }
            }
        do {
            let page = try Pages.page(
                of: found.map { ($0.id, $0.trip) }, size: Int(query.pageSize), token: query.pageToken)
            return .with { response in
                response.trips = page.items
                response.nextPageToken = page.nextPageToken
            }
        } catch {
            throw APIError.invalidArgument(error.description)
        }
    }
}
