import FleetServerSupport
import FleetTokens
import Foundation
import Logging

/// Fetches the trusted accounts from a JWKS URL (the token server's
/// `/.well-known/jwks.json`), again when asked — at most once per `minimumInterval`, one fetch
/// at a time, so that a flood of tokens with made-up key ids costs one request per interval.
actor JWKSRefresher {
    /// How long one fetch may take.
    static let timeout = Duration.seconds(5)

    private let url: String
    private let minimumInterval: Duration
    private let logger: Logger
    private let apply: @Sendable ([TrustedServiceAccount]) -> Void
    private let clock = ContinuousClock()
    private var lastAttempt: ContinuousClock.Instant?
    private var lastDocument: JSONWebKeySet?
    private var inFlight: Task<Void, Never>?

    /// A refresher of `url` that hands every changed set of accounts to `apply`.
    init(url: String, minimumInterval: Duration, logger: Logger, apply: @escaping @Sendable ([TrustedServiceAccount]) -> Void) {
        self.url = url
        self.minimumInterval = minimumInterval
        self.logger = logger
        self.apply = apply
    }

    /// Fetches the document unless one was fetched less than `minimumInterval` ago (joining a
    /// fetch under way). Returns whether a fetch was made, i.e. whether the keys may have changed.
    func refresh() async -> Bool {
        if let inFlight {
            await inFlight.value
            return true
        }
        if let lastAttempt, clock.now - lastAttempt < minimumInterval { return false }
        lastAttempt = clock.now
        let fetch = Task { await self.fetch() }
        inFlight = fetch
        await fetch.value
        inFlight = nil
        return true
    }

    private func fetch() async {
        do {
            let document = try JSONWebKeySet(json: try await FetchedDocument.fetch(url, timeout: Self.timeout).body)
            guard document != lastDocument else { return }
            let accounts = try document.trustedAccounts()
            lastDocument = document
            apply(accounts)
            logger.info("JWKS loaded", metadata: ["url": "\(FetchError.redacted(url))", "accounts": "\(accounts.count)", "keys": "\(document.keys.count)"])
        } catch {
            logger.warning("JWKS fetch failed", metadata: ["url": "\(FetchError.redacted(url))", "error": "\(error)"])
        }
    }
}
