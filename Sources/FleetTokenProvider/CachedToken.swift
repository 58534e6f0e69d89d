import FleetAuthHTTP
import Foundation

/// A token the provider holds, with the moments it stops being handed out freely and stops
/// being handed out at all.
struct CachedToken: Sendable {
    /// Where a cached token stands at some moment.
    enum Freshness: Equatable {
        /// Hand it out.
        case fresh
        /// Hand it out and refresh it in the background.
        case refreshDue
        /// Do not hand it out; fetch a new one.
        case stale
    }

    let token: String
    let expiresAt: Date
    /// From here on the token is handed out while a refresh runs in the background.
    let refreshFrom: Date
    /// From here on the token is too close to its expiry to be handed out.
    let reuseUntil: Date

    /// Holds `token` until `expiresAt`, scaling the margin and the refresh window down for a
    /// short-lived token: the margin is at most a quarter and the window at most half of the
    /// lifetime left at `receivedAt`, so a 30-second token is still reused for most of its life.
    init(token: String, expiresAt: Date, receivedAt: Date, margin: Duration, refreshWindow: Duration) {
        let lifetime = max(0, expiresAt.timeIntervalSince(receivedAt))
        let margin = min(margin.timeInterval, lifetime / 4)
        let window = max(margin, min(refreshWindow.timeInterval, lifetime / 2))
        self.token = token
        self.expiresAt = expiresAt
        self.refreshFrom = expiresAt - window
        self.reuseUntil = expiresAt - margin
    }

    /// Where the token stands at `now`.
    func freshness(at now: Date) -> Freshness {
        if now < refreshFrom { return .fresh }
        if now < reuseUntil { return .refreshDue }
        return .stale
    }
}
