import FleetAuthCodecs
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPURLResponse {
    /// The server's clock when it answered, from the `Date` header (RFC 9110's HTTP-date in
    /// any of its three forms); `nil` without one or when it cannot be read.
    var serverDate: Date? {
        value(forHTTPHeaderField: "Date").flatMap(HTTPDate.parse)
    }
}
