import FleetAuthLocking
import FleetEngineClient
import FleetTokenProvider
import Foundation
import NIOCore

/// What the demo's apps did, counted as it happens from every reporter, follower, provider
/// and intruder attempt.
package final class DemoStats: Sendable {
    /// The counts at one moment.
    package struct Counts: Sendable {
        /// Locations the drivers' reporters were given.
        package var reported = 0
        /// Locations Fleet Engine acknowledged.
        package var accepted = 0
        /// Locations replaced by a newer one before they were sent.
        package var superseded = 0
        /// Sends tried again after a failure.
        package var retries = 0
        /// Locations given up on.
        package var dropped = 0
        /// Reporters that stopped for good.
        package var stopped = 0
        /// Tokens served from the provider's cache, by app kind (`driver`, `consumer`).
        package var reused: [String: Int] = [:]
        /// Tokens fetched while none was usable, by app kind.
        package var fetched: [String: Int] = [:]
        /// Tokens refreshed early in the background, by app kind.
        package var refreshedEarly: [String: Int] = [:]
        /// Token fetches that failed, by app kind.
        package var fetchFailures: [String: Int] = [:]
        /// Tokens Fleet Engine answered 401 to, which the provider then invalidated.
        package var invalidated = 0
        /// Trip readings of the consumers' followers.
        package var tripReadings = 0
        /// Trips followed to `COMPLETE`.
        package var tripsCompleted = 0
        /// Why followers ended early.
        package var followErrors: [String] = []
        /// The intruder's attempts, by trick.
        package var intrusions: [String: IntruderTally] = [:]
    }

    /// The attempts of one intruder trick.
    package struct IntruderTally: Sendable {
        /// How often the trick was tried.
        package var attempts = 0
        /// How often it was refused.
        package var refused = 0
        /// The first refusal, e.g. `401 UNAUTHENTICATED: the token's signature …`.
        package var firstAnswer = ""
    }

    private let counts = Locked(Counts())
    /// Report-to-acknowledgement latencies, in nanoseconds: apart from the counts, so that the
    /// progress line reads the counts without copying every latency.
    private let latencies = Locked<[Int64]>([])

    /// The counts now.
    var current: Counts { counts.withLock { $0 } }

    /// Percentiles of the update latencies so far.
    var latency: LatencySummary { LatencySummary(latencies.withLock { $0 }) }

    func locationReported() {
        counts.withLock { $0.reported += 1 }
    }

    func record(_ event: ReporterEvent) {
        if case .accepted(_, let latency) = event {
            latencies.withLock { $0.append(TimeAmount(latency).nanoseconds) }
        }
        counts.withLock { counts in
            switch event {
            case .accepted: counts.accepted += 1
            case .superseded: counts.superseded += 1
            case .retrying: counts.retries += 1
            case .dropped: counts.dropped += 1
            case .stopped: counts.stopped += 1
            }
        }
    }

    func record(_ event: ProviderEvent, app kind: String) {
        counts.withLock { counts in
            switch event {
            case .reused: counts.reused[kind, default: 0] += 1
            case .fetched: counts.fetched[kind, default: 0] += 1
            case .refreshedEarly: counts.refreshedEarly[kind, default: 0] += 1
            case .failed: counts.fetchFailures[kind, default: 0] += 1
            case .invalidated: counts.invalidated += 1
            case .clockSkew: break  // the demo's apps share the servers' clock
            }
        }
    }

    func tripRead(_ trip: Trip) {
        counts.withLock { counts in
            counts.tripReadings += 1
            if trip.tripStatus == .complete { counts.tripsCompleted += 1 }
        }
    }

    func followFailed(_ error: any Error) {
        counts.withLock { $0.followErrors.append("\(error)") }
    }

    func intrusion(_ trick: String, refused: Bool, answer: String) {
        counts.withLock { counts in
            counts.intrusions[trick, default: IntruderTally()].attempts += 1
            if refused { counts.intrusions[trick, default: IntruderTally()].refused += 1 }
            if counts.intrusions[trick]?.firstAnswer.isEmpty == true { counts.intrusions[trick]?.firstAnswer = answer }
        }
    }
}

extension DemoStats.Counts {
    /// Intruder attempts that got through.
    package var intrusionsAccepted: Int { intrusions.values.reduce(0) { $0 + $1.attempts - $1.refused } }
}
