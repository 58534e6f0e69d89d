import Foundation

/// How far the token server's clock runs ahead of the device's (negative when it runs behind),
/// measured from one answer, so that a token's life is judged on the clock that wrote it.
///
/// The rule:
/// - With a `Date` header: the server's time when it answered, minus the device's time when the
///   answer arrived. `Date` is whole seconds, so the half second it drops on average is added
///   back. The result is never less than the token's `iat` minus the arrival time, since the
///   server's clock has at least reached the `iat` it wrote.
/// - Without one, the device's clock is trusted while it lies between the token's `iat` and
///   `exp`; outside that range it cannot be right, and the token is taken as just minted (its
///   `iat` is the server's time at arrival).
struct ServerClockOffset: Equatable, Sendable {
    /// Seconds to add to a device time to get the server's time.
    let seconds: TimeInterval

    /// The clocks agree.
    static let zero = ServerClockOffset(seconds: 0)

    /// Measures the offset from an answer that arrived at `receivedAt` on the device's clock,
    /// stating `serverDate` (its `Date` header) and carrying a token that states `times`.
    static func measure(serverDate: Date?, token times: UnverifiedJWT.Times, receivedAt: Date) -> ServerClockOffset {
        let sinceIssue = times.issuedAt.map { $0.timeIntervalSince(receivedAt) }
        if let serverDate {
            let measured = serverDate.timeIntervalSince(receivedAt) + 0.5
            return ServerClockOffset(seconds: max(measured, sinceIssue ?? measured))
        }
        guard let sinceIssue else { return .zero }
        let deviceIsPastExpiry = times.expiresAt.map { receivedAt >= $0 } ?? false
        return sinceIssue > 0 || deviceIsPastExpiry ? ServerClockOffset(seconds: sinceIssue) : .zero
    }

    /// The device's time at the moment the server's clock reads `serverTime`.
    func deviceTime(atServerTime serverTime: Date) -> Date {
        serverTime - seconds
    }

    /// The offset as a duration, positive when the server's clock is ahead.
    var duration: Duration {
        .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
