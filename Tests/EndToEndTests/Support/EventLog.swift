import FleetAuthLocking
import FleetEngineClient
import FleetTokenProvider

/// Everything one driver's reporter and token provider reported, collected as it happens.
final class EventLog: Sendable {
    struct Entries: Sendable {
        var accepted: [VehicleLocation] = []
        var superseded: [VehicleLocation] = []
        var retries: [Duration] = []
        var dropped: [VehicleLocation] = []
        var stopped: [FleetEngineError] = []
        var fetched = 0
        var refreshedEarly = 0
        var fetchFailures = 0
        var invalidated = 0
    }

    private let entries = Locked(Entries())
    private let readers = Locked<[Task<Void, Never>]>([])

    /// What was recorded so far.
    var current: Entries { entries.withLock { $0 } }

    /// Reads `reporter`'s events until its stream finishes.
    func follow(_ reporter: VehicleReporter) {
        let reader = Task {
            for await event in reporter.events { record(event) }
        }
        readers.withLock { $0.append(reader) }
    }

    /// Waits until every followed reporter's events are recorded (call after `finish()`).
    func caughtUp() async {
        for reader in readers.withLock({ $0 }) { await reader.value }
    }

    func record(_ event: ReporterEvent) {
        entries.withLock { entries in
            switch event {
            case .accepted(let location, _): entries.accepted.append(location)
            case .superseded(let location): entries.superseded.append(location)
            case .retrying(_, let delay, _): entries.retries.append(delay)
            case .dropped(let location, _): entries.dropped.append(location)
            case .stopped(let error): entries.stopped.append(error)
            }
        }
    }

    /// The provider's event hook.
    func record(_ event: ProviderEvent) {
        entries.withLock { entries in
            switch event {
            case .fetched: entries.fetched += 1
            case .refreshedEarly: entries.refreshedEarly += 1
            case .failed: entries.fetchFailures += 1
            case .invalidated: entries.invalidated += 1
            case .reused, .clockSkew: break
            }
        }
    }
}
