import Foundation

/// A document, fetched over HTTP and read into a value, that is fetched again on demand and
/// once stale: the one home of what the local Fleet Engine's trusted key sets and the token
/// server's OpenID Connect issuer keys share.
///
/// Fetches go through a ``RefetchSchedule``: one at a time, which callers share, at most one per
/// `minimumInterval`. A fetched value stays fresh as long as the answer's
/// `Cache-Control: max-age` says, held within `freshness` (`defaultFreshness` without a
/// `max-age`; without either it never goes stale). When a fetch fails, or its document does
/// not read, the value at hand stays and the failure is kept for the caller to report.
package actor RefreshedDocument<Value: Sendable> {
    private let schedule: RefetchSchedule
    private let timeout: Duration
    private let maximumSize: Int
    private let freshness: ClosedRange<TimeInterval>
    private let defaultFreshness: TimeInterval?
    private let now: @Sendable () -> Date
    private let locate: @Sendable () async throws -> String
    private let read: @Sendable (Data) throws -> Value

    /// The value of the last document that was fetched and read.
    package private(set) var value: Value?
    /// Why the last fetch failed; `nil` after one that worked.
    package private(set) var lastFailure: (any Error)?
    private let onFailure: @Sendable (any Error) async -> Void
    private var freshUntil: Date?

    /// A document fetched from the URL `locate` gives and read by `read`, each fetch bounded by
    /// `timeout` and `maximumSize` bytes. `read` and `onFailure` run as part of the fetch, so
    /// that what they do is done before any caller sharing the fetch goes on.
    package init(
        minimumInterval: Duration, timeout: Duration, maximumSize: Int = 1 << 20, freshness: ClosedRange<TimeInterval>,
        defaultFreshness: TimeInterval?, now: @escaping @Sendable () -> Date = { Date() },
        locate: @escaping @Sendable () async throws -> String, read: @escaping @Sendable (Data) throws -> Value,
        onFailure: @escaping @Sendable (any Error) async -> Void = { _ in }
    ) {
        self.schedule = RefetchSchedule(minimumInterval: minimumInterval, now: now)
        self.timeout = timeout
        self.maximumSize = maximumSize
        self.freshness = freshness
        self.defaultFreshness = defaultFreshness
        self.now = now
        self.locate = locate
        self.read = read
        self.onFailure = onFailure
    }

    /// Whether the value at hand is past its freshness (never before the first fetch).
    package var isStale: Bool {
        freshUntil.map { now() >= $0 } ?? false
    }

    /// Fetches when the schedule allows it now (or, when `waitingForNextSlot`, when it next
    /// allows it), or joins the fetch under way; returns whether a fetch was made, i.e. whether
    /// the value may have changed.
    package func refresh(waitingForNextSlot: Bool = false) async -> Bool {
        guard waitingForNextSlot else { return await schedule.run { await self.fetch() } }
        return await schedule.runWaitingForNextSlot({ await self.fetch() }, failed: { await self.lastFailure != nil })
    }

    private func fetch() async {
        do {
            let document = try await FetchedDocument.fetch(
                try await locate(), timeout: timeout, maximumSize: maximumSize)
            value = try read(document.body)
            lastFailure = nil
            let seconds = document.maxAge?.seconds ?? defaultFreshness
            freshUntil = seconds.map {
                now().addingTimeInterval(min(max($0, freshness.lowerBound), freshness.upperBound))
            }
        } catch {
            lastFailure = error
            await onFailure(error)
        }
    }
}
