import FleetTokenProvider
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Carries requests through another transport and rewrites each answer's `Date` header to the
/// time of `clock`, as if the server answering ran on that clock.
///
/// Test servers here judge tokens by a manual clock, but Hummingbird writes `Date` from the
/// real one; the provider measures the server's clock from that header, so without this a
/// manual clock set in 2023 would look three years behind the server.
package struct ServerClockTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let clock: any TokenClock

    /// Sends through `base`; answers carry `clock`'s time as their `Date`.
    package init(_ base: any HTTPTransport = URLSessionTransport(), clock: any TokenClock) {
        self.base = base
        self.clock = clock
    }

    /// Sends `request` through the base transport and restamps the answer.
    package func send(_ request: URLRequest, timeout: Duration) async throws -> (Data, HTTPURLResponse) {
        let (body, response) = try await base.send(request, timeout: timeout)
        var fields: [String: String] = [:]
        for case let (name as String, value as String) in response.allHeaderFields where name.lowercased() != "date" {
            fields[name] = value
        }
        fields["Date"] = Self.httpDate(clock.now)
        guard let url = response.url,
            let restamped = HTTPURLResponse(
                url: url, statusCode: response.statusCode, httpVersion: "HTTP/1.1", headerFields: fields)
        else { return (body, response) }
        return (body, restamped)
    }

    /// `date` as an RFC 9110 IMF-fixdate.
    package static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
