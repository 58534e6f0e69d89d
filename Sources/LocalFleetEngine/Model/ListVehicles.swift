/// ListVehicles' filters and paging, as both doors read them (Google's `ListVehiclesRequest`
/// less `parent`; `filter` and `viewport` are not supported yet and are refused by the doors).
public struct ListVehiclesQuery: Sendable, Hashable {
    /// The most vehicles on a page; 0 means the default, 100.
    public var pageSize = 0
    /// A previous page's ``ListVehiclesResponse/nextPageToken``, or empty for the first page.
    public var pageToken = ""
    /// Vehicles with at least this `maximumCapacity`.
    public var minimumCapacity: Int?
    /// Vehicles supporting at least one of these trip types (any when empty).
    public var tripTypes: [TripType] = []
    /// Vehicles whose location the engine received at most this long ago.
    public var maximumStaleness: Duration?
    /// Vehicles of one of these categories; required.
    public var vehicleTypeCategories: [VehicleType.Category] = []
    /// `key:value` attributes a vehicle must all have.
    public var requiredAttributes: [String] = []
    /// `key:value|key:value` lists, of each of which a vehicle must have at least one.
    public var requiredOneOfAttributes: [String] = []
    /// `key:value|key:value` lists, all of one of which a vehicle must have.
    public var requiredOneOfAttributeSets: [String] = []
    /// Vehicles in this state (any when `nil`).
    public var vehicleState: VehicleState?
    /// Only vehicles with current trips.
    public var onTripOnly = false

    /// A query with no filters (``vehicleTypeCategories`` must still be set).
    public init() {}
}

/// One page of ListVehicles' answer.
public struct ListVehiclesResponse: Sendable, Hashable {
    /// The vehicles of the page, by id.
    public var vehicles: [Vehicle]
    /// The token of the next page, or empty on the last one.
    public var nextPageToken: String
    /// How many vehicles pass the filters, on all pages.
    public var totalSize: Int

    /// A page.
    public init(vehicles: [Vehicle], nextPageToken: String, totalSize: Int) {
        self.vehicles = vehicles
        self.nextPageToken = nextPageToken
        self.totalSize = totalSize
    }
}
