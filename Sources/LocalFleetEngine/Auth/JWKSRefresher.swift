import FleetAuthLocking
import FleetAuthServerHTTP
import FleetTokens
import Foundation
import Logging

/// Fetches the accounts of one ``TrustedKeySource`` at start, again when asked (a token named
/// an unknown key) and when the keys are older than the `Cache-Control: max-age` the source
/// sent, through a ``RefreshedDocument``. While the source is down or answers garbage, the
/// keys it gave last stay in use.
struct JWKSRefresher: Sendable {
    /// How long one fetch may take, unless the configuration says otherwise
    /// (``LocalFleetEngineConfiguration/jwksFetchTimeout``).
    static let defaultTimeout = Duration.seconds(5)

    /// Where the keys come from.
    let source: TrustedKeySource
    private let document: RefreshedDocument<JSONWebKeySet>

    /// A refresher of `source`, fetching at most once per `minimumInterval` and giving a fetch
    /// up after `timeout`, that hands every changed set of its accounts to `apply`.
    init(
        source: TrustedKeySource, minimumInterval: Duration, timeout: Duration = defaultTimeout, logger: Logger,
        apply: @escaping @Sendable ([TrustedServiceAccount]) -> Void
    ) {
        self.source = source
        let url = source.url, shown = FetchError.redacted(source.url)
        // The key set whose accounts were handed to `apply` last.
        let applied = Locked<JSONWebKeySet?>(nil)
        // Kept for the `max-age` the source sends, never less than the interval; without one,
        // until a token asks for more.
        self.document = RefreshedDocument(
            minimumInterval: minimumInterval, timeout: timeout,
            freshness: minimumInterval.seconds...TimeInterval.infinity,
            defaultFreshness: nil, locate: { url },
            read: { body in
                let keys = try JSONWebKeySet(json: body)
                guard keys != applied.withLock({ $0 }) else { return keys }
                apply(try source.accounts(in: keys))
                applied.withLock { $0 = keys }
                logger.info(
                    "trusted keys loaded",
                    metadata: ["source": "\(source)", "url": "\(shown)", "keys": "\(keys.keys.count)"])
                return keys
            },
            onFailure: { error in
                logger.warning(
                    "trusted keys could not be fetched; the keys at hand stay in use",
                    metadata: [
                        "source": "\(source)", "url": "\(shown)", "error": "\(error)",
                    ])
            })
    }

    /// Whether the keys at hand are past the freshness the source gave them.
    var isStale: Bool {
        get async { await document.isStale }
    }

    /// Whether a fetch has brought keys yet.
    var hasKeys: Bool {
        get async { await document.value != nil }
    }

    /// Whether the source may hold keys of the account `issuer` (any account when `nil`): a
    /// JWKS URL may hold any account's, Google's keys of an account only that account's.
    func mayHoldKeys(of issuer: String?) -> Bool {
        switch source {
        case .jwks: true
        case .googleAccount(let account, _): issuer.map { $0 == account.email } ?? true
        }
    }

    /// Whether a token naming a key not at hand waits for the next fetch the schedule allows,
    /// rather than being refused until then: for a JWKS URL, yes, since a token server publishes
    /// a rotation's new key as it starts signing with it, and a rotation soon after a fetch
    /// must refuse no token; for a Google account, no: Google publishes a key as it is made,
    /// before anything can sign with it, so a key still unknown after a recent fetch is made up.
    var waitsForNewKeys: Bool {
        if case .jwks = source { true } else { false }
    }

    /// Fetches the keys when the schedule allows it now (or, when `waitingForNextSlot`, when it
    /// next allows it), or joins the fetch under way; returns whether a fetch was made, i.e.
    /// whether the keys may have changed.
    func refresh(waitingForNextSlot: Bool = false) async -> Bool {
        await document.refresh(waitingForNextSlot: waitingForNextSlot)
    }
}
