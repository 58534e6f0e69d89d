/// ListVehicles' filters and paging, as both doors read them (Google's `ListVehiclesRequest`
/// less `parent`; `filter` and `viewport` are not supported yet and are refused by the doors).
package struct ListVehiclesQuery: Sendable, Hashable {
    /// The most vehicles on a page; 0 means the default, 100.
    package var pageSize = 0
    /// A previous page's ``ListVehiclesResponse/nextPageToken``, or empty for the first page.
    package var pageToken = ""
    /// Vehicles with at least this `maximumCapacity`.
    package var minimumCapacity: Int?
    /// Vehicles supporting at least one of these trip types (any when empty).
    package var tripTypes: [TripType] = []
    /// Vehicles whose location the engine received at most this long ago.
    package var maximumStaleness: Duration?
    /// Vehicles of one of these categories; required.
    package var vehicleTypeCategories: [VehicleType.Category] = []
    /// `key:value` attributes a vehicle must all have.
    package var requiredAttributes: [String] = []
    /// `key:value|key:value` lists, of each of which a vehicle must have at least one.
    package var requiredOneOfAttributes: [String] = []
    /// `key:value|key:value` lists, all of one of which a vehicle must have.
    package var requiredOneOfAttributeSets: [String] = []
    /// Vehicles in this state (any when `nil`).
    package var vehicleState: VehicleState?
    /// Only vehicles with current trips.
    package var onTripOnly = false

    /// A query with no filters (``vehicleTypeCategories`` must still be set).
    package init() {}
}

/// One page of ListVehicles' answer.
package struct ListVehiclesResponse: Sendable, Hashable {
    /// The vehicles of the page, by id.
    package var vehicles: [Vehicle]
    /// The token of the next page, or empty on the last one.
    package var nextPageToken: String
    /// How many vehicles pass the filters, on all pages.
    package var totalSize: Int

    /// A page.
    package init(vehicles: [Vehicle], nextPageToken: String, totalSize: Int) {
        self.vehicles = vehicles
        self.nextPageToken = nextPageToken
        self.totalSize = totalSize
    }
}
