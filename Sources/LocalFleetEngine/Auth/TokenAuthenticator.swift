import FleetAuthLocking
import FleetTokens
import Logging

/// Verifies bearer tokens against the trusted accounts: the fixed ones (key files, JWKS
/// files) and those of the fetched key sources (the token server's JWKS URL, Google-managed
/// accounts), fetched again when a token comes from an unknown key or account, or fails its
/// signature (a new key a token without `kid` was signed with), and when their `max-age` ran
/// out — each source at most once per interval (see ``JWKSRefresher``). Only the sources that
/// may hold the token's claimed issuer are fetched, and a key still unknown after a fetch less
/// than an interval old is refused at once: a flood of made-up key ids costs one fetch of one
/// account per interval and waits for nothing. A rotation refuses no honest app where keys are
/// published before they sign, as Google publishes the keys it manages.
///
/// Verified tokens are remembered by the verifier, so a device's repeated requests cost a
/// hash and a lookup. Changed keys replace the verifier whole, so removed keys stop being
/// trusted.
final class TokenAuthenticator: Sendable {
    private let verifier: Locked<TokenVerifier>
    /// The accounts trusted without a fetch, and those each source gave, from which a new
    /// verifier is built whenever either changes.
    private let accounts: Locked<(fixed: [TrustedServiceAccount], fetched: [TrustedKeySource: [TrustedServiceAccount]])>
    private let makeVerifier: @Sendable ([TrustedServiceAccount]) -> TokenVerifier
    private let refreshers: [JWKSRefresher]
    private let staleCheckInterval: Duration
    /// When the sources are next looked at for keys past their `max-age`.
    private let nextStaleCheck: Locked<ContinuousClock.Instant>

    /// An authenticator trusting `accounts` plus those of `sources` (each fetch given up after
    /// `fetchTimeout`); `makeVerifier` builds a verifier for a set of accounts.
    init(
        accounts: [TrustedServiceAccount],
        sources: [TrustedKeySource],
        minimumRefreshInterval: Duration,
        fetchTimeout: Duration = JWKSRefresher.defaultTimeout,
        logger: Logger,
        makeVerifier: @escaping @Sendable ([TrustedServiceAccount]) -> TokenVerifier
    ) {
        let verifier = Locked(makeVerifier(accounts))
        let trusted = Locked<(fixed: [TrustedServiceAccount], fetched: [TrustedKeySource: [TrustedServiceAccount]])>(
            (accounts, [:]))
        self.verifier = verifier
        self.accounts = trusted
        self.makeVerifier = makeVerifier
        self.staleCheckInterval = minimumRefreshInterval
        self.nextStaleCheck = Locked(.now + minimumRefreshInterval)
        self.refreshers = sources.map { source in
            JWKSRefresher(
                source: source, minimumInterval: minimumRefreshInterval, timeout: fetchTimeout, logger: logger
            ) { accountsOfSource in
                Self.install(in: verifier, from: trusted, makeVerifier) { $0.fetched[source] = accountsOfSource }
            }
        }
    }

    /// Trusts `accounts` instead of the fixed accounts given at start (the signing keys of the
    /// token server run beside the engine, as they rotate).
    func trust(_ accounts: [TrustedServiceAccount]) {
        Self.install(in: verifier, from: self.accounts, makeVerifier) { $0.fixed = accounts }
    }

    /// Changes the trusted accounts and installs a verifier of them, under one lock: two
    /// changes at once must not install a verifier that lacks the other's keys.
    private static func install(
        in verifier: Locked<TokenVerifier>,
        from accounts: Locked<(fixed: [TrustedServiceAccount], fetched: [TrustedKeySource: [TrustedServiceAccount]])>,
        _ makeVerifier: @Sendable ([TrustedServiceAccount]) -> TokenVerifier,
        change: (inout (fixed: [TrustedServiceAccount], fetched: [TrustedKeySource: [TrustedServiceAccount]])) -> Void
    ) {
        accounts.withLock { accounts in
            change(&accounts)
            let all = accounts.fixed + accounts.fetched.values.flatMap { $0 }
            verifier.withLock { $0 = makeVerifier(all) }
        }
    }

    /// Starts fetching every source's keys, all at once, and returns without waiting for them:
    /// a source that is slow to answer delays neither the start nor another account's tokens.
    /// A token that arrives before its keys joins the fetch under way (see ``authenticate(_:)``).
    func startLoadingKeys() {
        for refresher in refreshers {
            Task { _ = await refresher.refresh() }
        }
    }

    /// Every account trusted now: the fixed ones and those the sources gave.
    var trustedAccounts: [TrustedServiceAccount] {
        verifier.withLock { $0 }.trustedAccounts
    }

    /// The verified token, or why it is refused.
    func authenticate(_ token: String) async throws(TokenRefusal) -> VerifiedToken {
        switch verifyWithKeysAtHand(token) {
        case .success(let verified):
            return verified
        case .failure(let refusal):
            guard mayFetchKeyFor(refusal) else { throw refusal }
            return try await verifyAfterFetching(token, refusal: refusal)
        }
    }

    /// ``authenticate(_:)`` without waiting: the verified token or its refusal with the keys at
    /// hand, or `nil` when the refusal is one a fetch of keys might cure.
    func authenticateWithoutWaiting(_ token: String) -> Result<VerifiedToken, TokenRefusal>? {
        let outcome = verifyWithKeysAtHand(token)
        if case .failure(let refusal) = outcome, mayFetchKeyFor(refusal) { return nil }
        return outcome
    }

    private func verifyWithKeysAtHand(_ token: String) -> Result<VerifiedToken, TokenRefusal> {
        refreshStaleSourcesInBackground()
        let verifier = verifier.withLock { $0 }
        return Result { () throws(TokenRefusal) in try verifier.verify(token) }
    }

    /// Whether fetching keys might cure `refusal`: there are sources to fetch, and it names a
    /// key or account not at hand, or a signature no key at hand matches.
    private func mayFetchKeyFor(_ refusal: TokenRefusal) -> Bool {
        !refreshers.isEmpty && Self.mayBeNewKey(refusal)
    }

    /// Once per interval, refreshes the sources whose keys are past their `max-age`, without
    /// holding up the request (the keys at hand serve it).
    private func refreshStaleSourcesInBackground() {
        guard !refreshers.isEmpty else { return }
        let now = ContinuousClock.now
        let due = nextStaleCheck.withLock { next in
            guard now >= next else { return false }
            next = now + staleCheckInterval
            return true
        }
        guard due else { return }
        let refreshers = refreshers
        Task {
            for refresher in refreshers where await refresher.isStale {
                _ = await refresher.refresh()
            }
        }
    }

    /// Refreshes the sources that may hold the keys of the account `token` claims as its
    /// issuer, each as its interval allows (joining a fetch under way), and verifies `token`
    /// again after each fetch: the token is accepted as soon as a fetch brings its key, whatever
    /// the other sources still take. Refused with the last refusal once every such source is
    /// done. A token naming a key its account's keys at hand from a JWKS URL lack (a rotation's
    /// new key: see ``JWKSRefresher/waitsForNewKeys``), and any token while a source has never
    /// answered (an engine started before its JWKS server), waits for the source's next allowed
    /// fetch, which every such token shares; otherwise a token is refused at once when each
    /// source fetched less than its interval ago. A made-up token costs no fetch of another
    /// account's keys.
    private func verifyAfterFetching(_ token: String, refusal: TokenRefusal) async throws(TokenRefusal) -> VerifiedToken
    {
        let issuer = Self.claimedIssuer(of: token)
        let refreshers = refreshers.filter { $0.mayHoldKeys(of: issuer) }
        guard !refreshers.isEmpty else { throw refusal }
        let (fetches, finished) = AsyncStream.makeStream(of: Bool.self)
        let remaining = Locked(refreshers.count)
        let namesNewKey = Self.namesKeyNotAtHand(refusal)
        for refresher in refreshers {
            // Unstructured: a source still fetching holds up no token another source verified.
            Task {
                var waiting = namesNewKey && refresher.waitsForNewKeys
                if !waiting { waiting = !(await refresher.hasKeys) }
                finished.yield(await refresher.refresh(waitingForNextSlot: waiting))
                if remaining.withLock({
                    $0 -= 1; return $0
                }) == 0 {
                    finished.finish()
                }
            }
        }
        var lastRefusal = refusal
        for await fetched in fetches where fetched {
            switch verifyWithKeysAtHand(token) {
            case .success(let verified): return verified
            case .failure(let refused): lastRefusal = refused
            }
        }
        throw lastRefusal
    }

    /// The issuer `token` claims, unverified: whose keys might verify it (`nil` when unreadable).
    private static func claimedIssuer(of token: String) -> String? {
        guard let segments = try? CompactToken(token), let payload = try? ClaimsPayload(json: segments.payload) else {
            return nil
        }
        return payload.iss
    }

    /// Whether `refusal` says the token names a key its account's keys at hand lack (not an
    /// account that is not trusted at all: that is refused at once).
    private static func namesKeyNotAtHand(_ refusal: TokenRefusal) -> Bool {
        if case .unknownKeyID = refusal { true } else { false }
    }

    /// Whether `refusal` could be cured by fetching the keys again.
    private static func mayBeNewKey(_ refusal: TokenRefusal) -> Bool {
        switch refusal {
        case .unknownIssuer, .unknownKeyID, .badSignature: true
        default: false
        }
    }
}
