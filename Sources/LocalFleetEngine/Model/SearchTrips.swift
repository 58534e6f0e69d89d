/// SearchTrips' query (Google's `SearchTripsRequest` less `parent` and `header`).
package struct SearchTripsQuery: Sendable, Hashable {
    /// The trips of this vehicle only; every vehicle's when `nil` (server and viewer tokens only).
    package var vehicleId: String?
    /// Only unfinished trips.
    package var activeTripsOnly: Bool?
    /// The most trips on a page; 0 or `nil` means the default, 100.
    package var pageSize: Int?
    /// A previous page's ``SearchTripsResponse/nextPageToken``.
    package var pageToken: String?
    /// Google's filter on trips not updated lately; the engine does not keep trips' update times
    /// and refuses it.
    package var minimumStaleness: String?

    /// A query.
    package init(vehicleId: String? = nil, activeTripsOnly: Bool? = nil, pageSize: Int? = nil, pageToken: String? = nil) {
        self.vehicleId = vehicleId
        self.activeTripsOnly = activeTripsOnly
        self.pageSize = pageSize
        self.pageToken = pageToken
    }

    /// Refuses a negative page size and the filter the engine cannot apply.
    package func validate() throws(InvalidArgument) {
        if let pageSize, pageSize < 0 { throw InvalidArgument("pageSize is \(pageSize); it must not be negative") }
        if minimumStaleness != nil { throw InvalidArgument("minimumStaleness is not supported by the local Fleet Engine's trip search yet") }
    }
}

/// One page of SearchTrips' answer.
package struct SearchTripsResponse: Sendable, Hashable {
    /// The trips of the page, by id.
    package var trips: [Trip]
    /// The token of the next page, or empty on the last one.
    package var nextPageToken: String

    /// A page.
    package init(trips: [Trip], nextPageToken: String) {
        self.trips = trips
        self.nextPageToken = nextPageToken
    }
}
