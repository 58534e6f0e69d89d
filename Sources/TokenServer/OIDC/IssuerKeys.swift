import FleetAuthServerHTTP
import FleetTokens
import Foundation
import Logging

/// The signing keys of one OpenID Connect issuer, from the `jwks_uri` of its discovery
/// document.
///
/// Keys are kept as long as the JWKS's `Cache-Control: max-age` says (within bounds). A `kid`
/// not at hand, or keys gone stale, start a fetch when the schedule of its
/// ``RefreshedDocument`` allows, so that forged `kid`s cannot make the server hammer the
/// issuer. When a fetch fails the keys at hand stay in use.
struct IssuerKeys: Sendable {
    /// What a lookup found.
    enum Lookup: Sendable {
        /// The key with the `kid`.
        case found(JWSPublicKey)
        /// The issuer's current keys do not include the `kid`.
        case unknown
        /// The keys cannot be fetched and none at hand has the `kid` (what went wrong).
        case unavailable(String)
    }

    /// How long keys stay fresh when the JWKS's `Cache-Control` gives no `max-age`.
    static let defaultFreshness: TimeInterval = 3600
    /// Bounds on the freshness a `max-age` can ask for: never refetched more often than once a
    /// minute while in use, nor kept unchecked for over a day.
    static let freshnessBounds: ClosedRange<TimeInterval> = 60...86_400
    /// The largest discovery or JWKS document read, in bytes.
    static let maximumDocumentSize = 1 << 20

    /// The issuer, as its tokens' `iss` spells it.
    let issuer: String
    private let keys: RefreshedDocument<[String: JWSPublicKey]>

    /// The keys of `issuer`, fetched when first needed.
    init(
        issuer: String, refetchInterval: Duration, requestTimeout: Duration, now: @escaping @Sendable () -> Date,
        logger: Logger
    ) {
        self.issuer = issuer
        let discovery = IssuerDiscovery(issuer: issuer, timeout: requestTimeout, maximumSize: Self.maximumDocumentSize)
        self.keys = RefreshedDocument(
            minimumInterval: refetchInterval, timeout: requestTimeout, maximumSize: Self.maximumDocumentSize,
            freshness: Self.freshnessBounds, defaultFreshness: Self.defaultFreshness, now: now,
            locate: { try await discovery.jwksURI() },
            read: { body in
                let usable = try Self.usableKeys(in: body, issuer: issuer, logger: logger)
                logger.debug(
                    "OIDC issuer keys loaded", metadata: ["issuer": "\(issuer)", "keys": "\(usable.keys.sorted())"])
                return usable
            },
            onFailure: { error in
                // Discover again next time: the jwks_uri may have moved.
                await discovery.forget()
                logger.warning(
                    "OIDC issuer keys could not be fetched; the keys at hand stay in use",
                    metadata: [
                        "issuer": "\(issuer)", "error": "\(error)",
                    ])
            })
    }

    /// The key with id `keyID`: from the keys at hand while they are fresh, else after
    /// fetching them again if the refetch interval allows.
    func key(_ keyID: String) async -> Lookup {
        if let key = await keys.value?[keyID], await !keys.isStale { return .found(key) }
        _ = await keys.refresh()
        if let key = await keys.value?[keyID] { return .found(key) }
        if let failure = await keys.lastFailure { return .unavailable("\(failure)") }
        return .unknown
    }

    /// The RS256 and ES256 keys of a JWKS by `kid`; keys of other kinds are skipped, unusable
    /// ones skipped with a warning. A set with no usable key is an error.
    private static func usableKeys(in body: Data, issuer: String, logger: Logger) throws -> [String: JWSPublicKey] {
        var usable: [String: JWSPublicKey] = [:]
        for key in try JSONWebKeySet(json: body).keys {
            guard let keyID = key.keyID else { continue }
            do {
                if let publicKey = try key.publicKey() { usable[keyID] = publicKey }
            } catch {
                logger.warning("OIDC issuer key skipped", metadata: ["issuer": "\(issuer)", "problem": "\(error)"])
            }
        }
        guard !usable.isEmpty else { throw FetchError(url: issuer, problem: "has no RS256 or ES256 key with a kid") }
        return usable
    }
}
