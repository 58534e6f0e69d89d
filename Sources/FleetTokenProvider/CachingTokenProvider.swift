import FleetAuthHTTP
import Foundation

/// Fetches tokens through a ``TokenFetcher``, reuses each until shortly before it expires and
/// refreshes it in the background before then.
///
/// - Expiry comes from the token's own `exp` claim, else the response's stated expiry; when
///   both are there the earlier wins.
/// - A token's life is judged on the token server's clock, not the device's: each answer's
///   `Date` header and the token's `iat` tell how far apart the two are, and the token's
///   expiry is moved onto the device's clock by that much. A phone hours ahead does not fetch
///   on every call, and one behind does not hand out tokens that have really expired. An
///   offset of ``Configuration/clockSkewReportThreshold`` or more is reported as
///   ``ProviderEvent/clockSkew(_:serverAhead:)``.
/// - A token is handed out while more than ``Configuration/refreshMargin`` of it is left.
///   Inside ``Configuration/refreshWindow`` it is still handed out and one background refresh
///   starts. For short-lived tokens both scale down (at most a quarter and half of the lifetime).
/// - One fetch runs per context, however many callers ask; a caller that is cancelled stops
///   waiting without cancelling the fetch for the others.
/// - A failed fetch is not remembered: the next call tries again. A fetch that takes longer
///   than ``Configuration/fetchTimeout`` fails with ``TokenProviderError/timedOut``.
/// - At most ``Configuration/capacity`` contexts are held; the least recently used goes first.
public actor CachingTokenProvider: AuthorizationTokenProvider {
    /// The provider's timing and size settings.
    public struct Configuration: Sendable {
        /// A token is not handed out once less than this is left of it. Default 60 s.
        public var refreshMargin: Duration
        /// A token with less than this left is handed out while a refresh runs. Default 5 min.
        public var refreshWindow: Duration
        /// How long one fetch, retries included, may take. Default 30 s.
        public var fetchTimeout: Duration
        /// How many contexts are held at most. Default 64.
        public var capacity: Int
        /// A measured offset between the device's clock and the token server's of at least
        /// this much is reported as ``ProviderEvent/clockSkew(_:serverAhead:)``. Default 30 s.
        public var clockSkewReportThreshold: Duration

        /// Creates a configuration; the defaults suit Fleet Engine's one-hour tokens.
        public init(
            refreshMargin: Duration = .seconds(60),
            refreshWindow: Duration = .seconds(300),
            fetchTimeout: Duration = .seconds(30),
            capacity: Int = 64,
            clockSkewReportThreshold: Duration = .seconds(30)
        ) {
            self.refreshMargin = refreshMargin
            self.refreshWindow = refreshWindow
            self.fetchTimeout = fetchTimeout
            self.capacity = capacity
            self.clockSkewReportThreshold = clockSkewReportThreshold
        }
    }

    private let fetcher: any TokenFetcher
    private let configuration: Configuration
    private let clock: any TokenClock
    private let onEvent: (@Sendable (ProviderEvent) -> Void)?
    private var cache: TokenCache
    private var fetches: [AuthorizationContext: PendingFetch] = [:]
    private var lastID: UInt64 = 0

    /// Creates a provider that gets its tokens from `fetcher`.
    ///
    /// - Parameters:
    ///   - fetcher: Where new tokens come from, usually an ``HTTPTokenFetcher``.
    ///   - configuration: Margins, timeout and capacity.
    ///   - clock: The time tokens are judged by; inject a ``ManualTokenClock`` in tests.
    ///   - onEvent: Told of every reuse, fetch, early refresh, failure and invalidation, on
    ///     the provider's executor: keep it quick and do not block in it.
    public init(
        fetcher: any TokenFetcher,
        configuration: Configuration = Configuration(),
        clock: any TokenClock = SystemTokenClock(),
        onEvent: (@Sendable (ProviderEvent) -> Void)? = nil
    ) {
        self.fetcher = fetcher
        self.configuration = configuration
        self.clock = clock
        self.onEvent = onEvent
        self.cache = TokenCache(capacity: configuration.capacity)
    }

    /// A token for `context`: the held one while it is fresh enough, else a new one from the
    /// fetch already running for `context` or from one started now.
    ///
    /// - Throws: Whatever the fetch threw (a ``TokenProviderError`` from ``HTTPTokenFetcher``),
    ///   ``TokenProviderError/timedOut``, or `CancellationError` when this caller is cancelled.
    public func token(for context: AuthorizationContext) async throws -> String {
        if let cached = cache.token(for: context) {
            switch cached.freshness(at: clock.now) {
            case .fresh:
                onEvent?(.reused(context))
                return cached.token
            case .refreshDue:
                if fetches[context] == nil { startFetch(for: context, reason: .earlyRefresh) }
                onEvent?(.reused(context))
                return cached.token
            case .stale:
                cache.remove(context)
            }
        }
        return try await awaitFetch(for: context)
    }

    /// Drops the token held for `context`; the next call fetches a new one. A fetch already
    /// running for `context` goes on, since it brings a new token.
    public func invalidate(_ context: AuthorizationContext) {
        cache.remove(context)
        onEvent?(.invalidated(context))
    }

    /// Waits for the fetch for `context`, starting one if none runs; cancelling the caller
    /// only stops this wait.
    private func awaitFetch(for context: AuthorizationContext) async throws -> String {
        let waiter = newID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard !Task.isCancelled else {
                    return continuation.resume(throwing: CancellationError())
                }
                if fetches[context] == nil { startFetch(for: context, reason: .needed) }
                fetches[context]?.waiters[waiter] = continuation
            }
        } onCancel: {
            Task { await self.stopWaiting(waiter, for: context) }
        }
    }

    private func stopWaiting(_ waiter: UInt64, for context: AuthorizationContext) {
        fetches[context]?.waiters.removeValue(forKey: waiter)?.resume(throwing: CancellationError())
    }

    /// Starts the fetch for `context` and the timer that bounds it; the first to report wins.
    private func startFetch(for context: AuthorizationContext, reason: PendingFetch.Reason) {
        let id = newID()
        var pending = PendingFetch(id: id, reason: reason, startedAt: clock.now)
        let fetcher = fetcher
        let timeout = configuration.fetchTimeout
        pending.tasks = [
            Task {
                let result: Result<FetchedToken, any Error>
                do {
                    result = .success(try await fetcher.fetchToken(for: context))
                } catch {
                    result = .failure(error)
                }
                finishFetch(id, for: context, with: result)
            },
            Task {
                do { try await Task.sleep(for: timeout) } catch { return }
                finishFetch(id, for: context, with: .failure(TokenProviderError.timedOut))
            },
        ]
        fetches[context] = pending
    }

    /// Settles fetch `id` for `context`, unless it was settled already (by its timer, or by the
    /// fetch beating the timer).
    private func finishFetch(
        _ id: UInt64,
        for context: AuthorizationContext,
        with result: Result<FetchedToken, any Error>
    ) {
        guard let pending = fetches[context], pending.id == id else { return }
        fetches[context] = nil
        let outcome = result.flatMap { fetched in
            Result { try store(fetched, for: context, requestedAt: pending.startedAt) }
        }
        switch outcome {
        case .success(let cached):
            let expiresAt = cached.expiresAt
            onEvent?(
                pending.reason == .needed
                    ? .fetched(context, expiresAt: expiresAt)
                    : .refreshedEarly(context, expiresAt: expiresAt))
        case .failure(let error):
            onEvent?(.failed(context, error))
        }
        pending.finish(with: outcome.map(\.token))
    }

    /// Holds a fetched token for `context` unless it is already stale, its expiry moved onto
    /// the device's clock; a stale one is still handed to the callers waiting for it, as
    /// nothing fresher can be had.
    private func store(
        _ fetched: FetchedToken,
        for context: AuthorizationContext,
        requestedAt: Date
    ) throws -> CachedToken {
        let now = clock.now
        let (expiry, offset) = fetched.expiry(requestedAt: requestedAt, receivedAt: now)
        if abs(offset.seconds) >= configuration.clockSkewReportThreshold.timeInterval {
            onEvent?(.clockSkew(context, serverAhead: offset.duration))
        }
        guard let expiresAt = expiry else {
            throw TokenProviderError.missingExpiry
        }
        let cached = CachedToken(
            token: fetched.token,
            expiresAt: expiresAt,
            receivedAt: now,
            margin: configuration.refreshMargin,
            refreshWindow: configuration.refreshWindow
        )
        if cached.freshness(at: now) != .stale { cache.store(cached, for: context) }
        return cached
    }

    private func newID() -> UInt64 {
        lastID += 1
        return lastID
    }
}
