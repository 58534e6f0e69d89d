import AsyncHTTPClient
import FleetTokens
import Foundation
import Logging
import NIOCore

/// Fetches the trusted accounts from a JWKS URL (the token server's
/// `/.well-known/jwks.json`), again when asked — at most once per `minimumInterval`, one fetch
/// at a time, so that a flood of tokens with made-up key ids costs one request per interval.
actor JWKSRefresher {
    /// The largest JWKS document read, in bytes.
    static let maximumDocumentSize = 1 << 20
    /// How long one fetch may take.
    static let timeout = TimeAmount.seconds(5)

    private let url: String
    /// The URL for logs, without any user name or password in it.
    private let loggedURL: String
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
        var components = URLComponents(string: url)
        components?.user = nil
        components?.password = nil
        self.loggedURL = components?.string ?? "(unparsable URL)"
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
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: Self.timeout)
            guard response.status == .ok else {
                logger.warning("JWKS fetch refused", metadata: ["url": "\(loggedURL)", "status": "\(response.status.code)"])
                return
            }
            let body = try await response.body.collect(upTo: Self.maximumDocumentSize)
            let document = try JSONWebKeySet(json: Data(body.readableBytesView))
            guard document != lastDocument else { return }
            let accounts = try document.trustedAccounts()
            lastDocument = document
            apply(accounts)
            logger.info("JWKS loaded", metadata: ["url": "\(loggedURL)", "accounts": "\(accounts.count)", "keys": "\(document.keys.count)"])
        } catch {
            logger.warning("JWKS fetch failed", metadata: ["url": "\(loggedURL)", "error": "\(error)"])
        }
    }
}
