/// The rules of a SearchTrips request.
extension SearchTripsRequest {
    /// Refuses a negative page size, and `minimumStaleness`, which the engine cannot apply (it
    /// does not keep trips' update times).
    package func validate() throws(InvalidArgument) {
        try requireKnownFields("the request")
        if pageSize < 0 { throw InvalidArgument("pageSize is \(pageSize); it must not be negative") }
        if hasMinimumStaleness {
            throw InvalidArgument("minimumStaleness is not supported by the local Fleet Engine's trip search yet")
        }
    }
}

/// The rules of a ReportBillableTrip request.
extension BillableTripReport {
    /// Refuses a report without a country code, or with a platform or solution the API does
    /// not define.
    package func validate() throws(InvalidArgument) {
        try requireKnownFields("the request")
        guard !countryCode.isEmpty else { throw InvalidArgument("countryCode is required") }
        try platform.requireDefined("platform")
        try solutionType.requireDefined("solutionType")
    }
}
