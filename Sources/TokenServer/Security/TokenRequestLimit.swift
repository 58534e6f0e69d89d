import FleetAuthLocking
import Foundation

/// At most ``perMinute`` token requests a minute from one caller (a session, or the identity
/// of an ID token): an app stuck in a loop gets 429 with `Retry-After` instead of an RSA
/// signature (or an IAM `signJwt` call against the project's quota) each time.
///
/// The whole minute's allowance may be spent at once; after that one request comes back every
/// `60 / perMinute` seconds (the generic cell rate algorithm: one instant kept per caller, the
/// moment its allowance is whole again). State is in memory, per replica; a caller that has
/// its whole allowance again is forgotten.
package final class TokenRequestLimit: Sendable {
    /// Requests allowed per caller per minute; 0 turns the limit off.
    package let perMinute: Int

    /// What the limit says of one request.
    package enum Verdict: Equatable, Sendable {
        /// Within the limit, and counted.
        case allowed
        /// Over it: the caller may ask again after `retryAfter`; `isFirst` the first refusal
        /// since the caller was last allowed (the one worth a log line).
        case limited(retryAfter: Duration, isFirst: Bool)
    }

    private struct Caller {
        /// When the caller's allowance is whole again, in seconds since the reference date.
        var whole: Double
        /// Whether the caller's last request was refused.
        var limited: Bool
    }

    private let callers = Locked([String: Caller]())
    private let now: @Sendable () -> Date
    /// Callers seen since the last sweep of those whose allowance is whole again.
    private let sinceSweep = Locked(0)

    /// A limit of `perMinute` requests per caller (0: none), by the clock `now`.
    package init(perMinute: Int, now: @escaping @Sendable () -> Date = { Date() }) {
        self.perMinute = perMinute
        self.now = now
    }

    /// Counts a request of `caller` (a key that names it and holds no secret) if the limit
    /// allows it.
    package func admit(_ caller: String) -> Verdict {
        guard perMinute > 0 else { return .allowed }
        let interval = 60 / Double(perMinute)
        let tolerance = 60 - interval
        let current = now().timeIntervalSinceReferenceDate
        let verdict = callers.withLock { callers -> Verdict in
            let entry = callers[caller] ?? Caller(whole: current, limited: false)
            let whole = max(entry.whole, current)
            if whole - current > tolerance {
                callers[caller] = Caller(whole: entry.whole, limited: true)
                let wait = whole - tolerance - current
                return .limited(retryAfter: .milliseconds(Int64((wait * 1000).rounded(.up))), isFirst: !entry.limited)
            }
            callers[caller] = Caller(whole: whole + interval, limited: false)
            return .allowed
        }
        sweepNowAndThen(at: current)
        return verdict
    }

    /// Every 1,024 requests, forgets the callers whose allowance is whole again: they would be
    /// treated as new ones anyway.
    private func sweepNowAndThen(at current: Double) {
        let due = sinceSweep.withLock { count -> Bool in
            count += 1
            guard count >= 1024 else { return false }
            count = 0
            return true
        }
        guard due else { return }
        callers.withLock { $0 = $0.filter { $0.value.whole > current } }
    }
}
