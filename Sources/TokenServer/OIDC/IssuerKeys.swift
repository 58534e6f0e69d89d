import FleetTokens
import Foundation
import Logging
import ServerHTTP

/// The signing keys of one OpenID Connect issuer, from the `jwks_uri` of its discovery
/// document.
///
/// Keys are kept as long as the JWKS's `Cache-Control: max-age` says (within bounds). A `kid`
/// not at hand, or keys gone stale, start a fetch when the ``RefetchSchedule`` allows, so that
/// forged `kid`s cannot make the server hammer the issuer. When a fetch fails the keys at hand
/// stay in use.
actor IssuerKeys {
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
    private let schedule: RefetchSchedule
    private let requestTimeout: Duration
    private let now: @Sendable () -> Date
    private let logger: Logger

    private var keys: [String: JWSPublicKey] = [:]
    private var freshUntil = Date.distantPast
    private var jwksURI: String?
    /// Why the last fetch failed; `nil` after one that worked.
    private var lastFailure: String?

    /// The keys of `issuer`, fetched when first needed.
    init(issuer: String, refetchInterval: Duration, requestTimeout: Duration, now: @escaping @Sendable () -> Date, logger: Logger) {
        self.issuer = issuer
        self.schedule = RefetchSchedule(minimumInterval: refetchInterval, now: now)
        self.requestTimeout = requestTimeout
        self.now = now
        self.logger = logger
    }

    /// The key with id `keyID`: from the keys at hand while they are fresh, else after
    /// fetching them again if the refetch interval allows.
    func key(_ keyID: String) async -> Lookup {
        if let key = keys[keyID], now() < freshUntil { return .found(key) }
        _ = await schedule.run { await self.refresh() }
        if let key = keys[keyID] { return .found(key) }
        if let lastFailure { return .unavailable(lastFailure) }
        return .unknown
    }

    private func refresh() async {
        do {
            let uri = try await discoverJWKSURI()
            let document = try await FetchedDocument.fetch(uri, timeout: requestTimeout, maximumSize: Self.maximumDocumentSize)
            let fetched = try usableKeys(in: document.body)
            keys = fetched
            let freshness = document.maxAge.map { $0.seconds } ?? Self.defaultFreshness
            freshUntil = now().addingTimeInterval(min(max(freshness, Self.freshnessBounds.lowerBound), Self.freshnessBounds.upperBound))
            lastFailure = nil
            logger.debug("OIDC issuer keys loaded", metadata: ["issuer": "\(issuer)", "keys": "\(fetched.keys.sorted())"])
        } catch {
            // Discover again next time: the jwks_uri may have moved.
            jwksURI = nil
            lastFailure = "\(error)"
            logger.warning("OIDC issuer keys could not be fetched; the keys at hand stay in use", metadata: [
                "issuer": "\(issuer)", "keysAtHand": "\(keys.count)", "error": "\(error)",
            ])
        }
    }

    /// The `jwks_uri` of the issuer's discovery document, fetched once and kept until a
    /// fetch of the keys fails.
    private func discoverJWKSURI() async throws -> String {
        if let jwksURI { return jwksURI }
        let url = OIDCSettings.discoveryURL(of: issuer)
        let body = try await FetchedDocument.fetch(url, timeout: requestTimeout, maximumSize: Self.maximumDocumentSize).body
        guard let discovery = try? JSONDecoder().decode(Discovery.self, from: body) else {
            throw FetchError(url: url, problem: "is not a discovery document with issuer and jwks_uri")
        }
        // OpenID Connect Discovery 1.0 §4.3: the document must name the issuer it was asked of.
        guard discovery.issuer == issuer else { throw FetchError(url: url, problem: "names another issuer") }
        guard let jwks = URLComponents(string: discovery.jwksURI), OIDCSettings.isSecure(jwks) else {
            throw FetchError(url: url, problem: "has a jwks_uri that is not an https URL")
        }
        jwksURI = discovery.jwksURI
        return discovery.jwksURI
    }

    /// The RS256 and ES256 keys of a JWKS by `kid`; keys of other kinds are skipped, unusable
    /// ones skipped with a warning. A set with no usable key is an error.
    private func usableKeys(in body: Data) throws -> [String: JWSPublicKey] {
        var usable: [String: JWSPublicKey] = [:]
        for key in try JSONWebKeySet(json: body).keys {
            guard let keyID = key.keyID else { continue }
            do {
                if let publicKey = try key.publicKey() { usable[keyID] = publicKey }
            } catch {
                logger.warning("OIDC issuer key skipped", metadata: ["issuer": "\(issuer)", "problem": "\(error)"])
            }
        }
        guard !usable.isEmpty else { throw FetchError(url: jwksURI ?? issuer, problem: "has no RS256 or ES256 key with a kid") }
        return usable
    }

    private struct Discovery: Decodable {
        let issuer: String
        let jwksURI: String

        enum CodingKeys: String, CodingKey {
            case issuer
            case jwksURI = "jwks_uri"
        }
    }
}
