import FleetAuthLocking
import FleetTokenProvider

/// Wraps the real ``HTTPTokenFetcher`` and counts what goes through it, so that tests can
/// assert how many fetches there were and wait until none is running.
final class CountingFetcher: TokenFetcher {
    struct Counts: Sendable {
        var started = 0
        var succeeded = 0
        var failed = 0
        /// The most fetches that ran at once.
        var mostRunning = 0
        var running: Int { started - succeeded - failed }
    }

    private let base: any TokenFetcher
    private let counts = Locked(Counts())

    init(_ base: any TokenFetcher) {
        self.base = base
    }

    /// The counts so far.
    var current: Counts { counts.withLock { $0 } }

    func fetchToken(for context: AuthorizationContext) async throws -> FetchedToken {
        counts.withLock { counts in
            counts.started += 1
            counts.mostRunning = max(counts.mostRunning, counts.running)
        }
        do {
            let token = try await base.fetchToken(for: context)
            counts.withLock { $0.succeeded += 1 }
            return token
        } catch {
            counts.withLock { $0.failed += 1 }
            throw error
        }
    }
}
