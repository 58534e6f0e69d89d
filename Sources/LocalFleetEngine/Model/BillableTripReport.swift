/// ReportBillableTrip's request less its `name`: where and how a billable trip was booked.
package struct BillableTripReport: Sendable, Hashable {
    /// The two-letter country code of the trip; required.
    package var countryCode: String?
    /// Where the trip was booked.
    package var platform: BillingPlatform?
    /// Ids of related trips (e.g. ones the billable trip replaced).
    package var relatedIds: [String]?
    /// The product the trip is billed under.
    package var solutionType: SolutionType?

    /// A report.
    package init(countryCode: String?, platform: BillingPlatform? = nil, relatedIds: [String]? = nil, solutionType: SolutionType? = nil) {
        self.countryCode = countryCode
        self.platform = platform
        self.relatedIds = relatedIds
        self.solutionType = solutionType
    }

    /// Refuses a report without a country code.
    package func validate() throws(InvalidArgument) {
        guard let countryCode, !countryCode.isEmpty else { throw InvalidArgument("countryCode is required") }
    }

    /// Where a billable trip was booked (Google's `BillingPlatformIdentifier`).
    package enum BillingPlatform: String, ProtoEnum {
        /// Not specified.
        case unspecified = "BILLING_PLATFORM_IDENTIFIER_UNSPECIFIED"
        /// A server.
        case server = "SERVER"
        /// A web app.
        case web = "WEB"
        /// An Android app.
        case android = "ANDROID"
        /// An iOS app.
        case ios = "IOS"
        /// Anywhere else.
        case others = "OTHERS"
    }

    /// The product a trip is billed under.
    package enum SolutionType: String, ProtoEnum {
        /// Not specified.
        case unspecified = "SOLUTION_TYPE_UNSPECIFIED"
        /// On-demand rides and deliveries.
        case onDemandRidesharingAndDeliveries = "ON_DEMAND_RIDESHARING_AND_DELIVERIES"
    }
}
