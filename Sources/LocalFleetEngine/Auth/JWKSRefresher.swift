import FleetTokens
import Foundation
import Logging
import ServerHTTP

/// Fetches the accounts of one ``TrustedKeySource`` at start, again when asked (a token named
/// an unknown key) and when the keys are older than the `Cache-Control: max-age` the source
/// sent, as its ``RefetchSchedule`` allows. While the source is down or answers garbage, the
/// keys it gave last stay in use.
actor JWKSRefresher {
    /// How long one fetch may take.
    static let timeout = Duration.seconds(5)

    /// Where the keys come from.
    let source: TrustedKeySource
    private let minimumInterval: Duration
    private let schedule: RefetchSchedule
    private let logger: Logger
    private let apply: @Sendable ([TrustedServiceAccount]) -> Void
    private let clock = ContinuousClock()
    private var freshUntil: ContinuousClock.Instant?
    private var lastDocument: JSONWebKeySet?

    /// A refresher of `source` that hands every changed set of its accounts to `apply`.
    init(source: TrustedKeySource, minimumInterval: Duration, logger: Logger, apply: @escaping @Sendable ([TrustedServiceAccount]) -> Void) {
        self.source = source
        self.minimumInterval = minimumInterval
        self.schedule = RefetchSchedule(minimumInterval: minimumInterval)
        self.logger = logger
        self.apply = apply
    }

    /// Whether the source may hold keys of the account `issuer` (any account when `nil`): a
    /// JWKS URL may hold any account's, Google's keys of an account only that account's.
    nonisolated func mayHoldKeys(of issuer: String?) -> Bool {
        switch source {
        case .jwks: true
        case .googleAccount(let account, _): issuer.map { $0 == account.email } ?? true
        }
    }

    /// Whether the keys at hand are past the freshness the source gave them.
    var isStale: Bool {
        freshUntil.map { clock.now >= $0 } ?? false
    }

    /// Whether a fetch has brought keys yet.
    var hasKeys: Bool { lastDocument != nil }

    /// Fetches the document when the schedule allows it now (or, when `waitingForNextSlot`,
    /// when it next allows it), or joins the fetch under way (see
    /// ``RefetchSchedule/run(waitingForNextSlot:_:)``); returns whether a fetch was made, i.e.
    /// whether the keys may have changed.
    func refresh(waitingForNextSlot: Bool = false) async -> Bool {
        await schedule.run(waitingForNextSlot: waitingForNextSlot) { await self.fetch() }
    }

    private func fetch() async {
        let shown = FetchError.redacted(source.url)
        do {
            let fetched = try await FetchedDocument.fetch(source.url, timeout: Self.timeout)
            let document = try JSONWebKeySet(json: fetched.body)
            freshUntil = fetched.maxAge.map { clock.now + max($0, minimumInterval) }
            guard document != lastDocument else { return }
            let accounts = try source.accounts(in: document)
            lastDocument = document
            apply(accounts)
            logger.info("trusted keys loaded", metadata: ["source": "\(source)", "url": "\(shown)", "keys": "\(document.keys.count)"])
        } catch {
            logger.warning("trusted keys could not be fetched; the keys at hand stay in use", metadata: [
                "source": "\(source)", "url": "\(shown)", "error": "\(error)",
            ])
        }
    }
}
