import Foundation

/// Slows password guessing: after too many failed logins for one username, or from one
/// client address, within a window, further attempts are refused until the oldest failure
/// leaves the window. State is in memory, per replica, and bounded.
package actor LoginThrottle {
    /// How many failures are allowed, and over how long.
    package struct Policy: Sendable, Hashable {
        /// Failures allowed per username within ``window``.
        package var failuresPerUsername: Int
        /// Failures allowed per client address within ``window``.
        package var failuresPerAddress: Int
        /// How long a failure counts.
        package var window: Duration
        /// The most usernames and addresses tracked at once; the stalest are forgotten first.
        package var trackedKeys: Int

        /// A policy.
        package init(
            failuresPerUsername: Int = 5, failuresPerAddress: Int = 20, window: Duration = .seconds(300),
            trackedKeys: Int = 50_000
        ) {
            self.failuresPerUsername = failuresPerUsername
            self.failuresPerAddress = failuresPerAddress
            self.window = window
            self.trackedKeys = trackedKeys
        }
    }

    private enum Key: Hashable, Sendable {
        case username(String)
        case address(String)
    }

    private let policy: Policy
    private let now: @Sendable () -> Date
    private var failures: [Key: [Date]] = [:]

    /// A throttle applying `policy` by the clock `now`.
    package init(policy: Policy = Policy(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.policy = policy
        self.now = now
    }

    /// How long until `username` from `address` may try again, or `nil` if it may now.
    package func wait(username: String, address: String?) -> Duration? {
        let current = now()
        var longest: Duration?
        for (key, limit) in keys(username: username, address: address) {
            guard let wait = wait(for: key, limit: limit, at: current) else { continue }
            longest = max(longest ?? .zero, wait)
        }
        return longest
    }

    /// Counts a failed login.
    package func recordFailure(username: String, address: String?) {
        let current = now()
        let counted = keys(username: username, address: address).map(\.0)
        for key in counted {
            var times = recent(key, at: current)
            times.append(current)
            failures[key] = times
        }
        forgetStalestIfFull(at: current, keeping: Set(counted))
    }

    /// Clears the username's failures after a successful login (the address keeps its own).
    package func recordSuccess(username: String) {
        failures[.username(username)] = nil
    }

    private func keys(username: String, address: String?) -> [(Key, Int)] {
        var keys = [(Key.username(username), policy.failuresPerUsername)]
        if let address { keys.append((.address(address), policy.failuresPerAddress)) }
        return keys
    }

    private func recent(_ key: Key, at current: Date) -> [Date] {
        let start = current.addingTimeInterval(-policy.window.seconds)
        return (failures[key] ?? []).filter { $0 > start }
    }

    private func wait(for key: Key, limit: Int, at current: Date) -> Duration? {
        let times = recent(key, at: current)
        failures[key] = times.isEmpty ? nil : times
        guard times.count >= limit, let blocking = times.dropLast(limit - 1).last else { return nil }
        let remaining = blocking.addingTimeInterval(policy.window.seconds).timeIntervalSince(current)
        return remaining > 0 ? .milliseconds(Int64((remaining * 1000).rounded(.up))) : nil
    }

    /// Over the bound, drops failures that left the window, then the keys failed least
    /// recently, never those of the failure just counted.
    private func forgetStalestIfFull(at current: Date, keeping counted: Set<Key>) {
        guard failures.count > policy.trackedKeys else { return }
        let start = current.addingTimeInterval(-policy.window.seconds)
        failures = failures.filter { $0.value.contains { $0 > start } }
        while failures.count > policy.trackedKeys {
            let candidates = failures.filter { !counted.contains($0.key) }
            guard
                let stalest = candidates.min(by: { ($0.value.last ?? .distantPast) < ($1.value.last ?? .distantPast) })?
                    .key
            else { break }
            failures[stalest] = nil
        }
    }
}
