import FleetTokens
import Logging
import NIOConcurrencyHelpers

/// Verifies bearer tokens against the trusted accounts: the fixed ones (key files, JWKS
/// files) and, when a JWKS URL is configured, the ones it publishes, fetched again when a
/// token comes from an unknown key or account (rate-limited by ``JWKSRefresher``).
///
/// Verified tokens are remembered by the verifier, so a device's repeated requests cost a
/// hash and a lookup. A changed JWKS replaces the verifier whole, so removed keys stop being
/// trusted.
final class TokenAuthenticator: Sendable {
    private let verifier: NIOLockedValueBox<TokenVerifier>
    private let refresher: JWKSRefresher?

    /// An authenticator trusting `accounts`, plus those of `jwksURL` when given;
    /// `makeVerifier` builds a verifier for a set of accounts.
    init(
        accounts: [TrustedServiceAccount],
        jwksURL: String?,
        minimumRefreshInterval: Duration,
        logger: Logger,
        makeVerifier: @escaping @Sendable ([TrustedServiceAccount]) -> TokenVerifier
    ) {
        let verifier = NIOLockedValueBox(makeVerifier(accounts))
        self.verifier = verifier
        self.refresher = jwksURL.map { url in
            JWKSRefresher(url: url, minimumInterval: minimumRefreshInterval, logger: logger) { fetched in
                verifier.withLockedValue { $0 = makeVerifier(accounts + fetched) }
            }
        }
    }

    /// Fetches the JWKS, if there is one; called once at start.
    func loadKeys() async {
        _ = await refresher?.refresh()
    }

    /// The verified token, or why it is refused.
    func authenticate(_ token: String) async throws(TokenRefusal) -> VerifiedToken {
        do {
            return try verifier.withLockedValue { $0 }.verify(token)
        } catch {
            guard Self.mayBeNewKey(error), let refresher, await refresher.refresh() else { throw error }
            return try verifier.withLockedValue { $0 }.verify(token)
        }
    }

    /// Whether `refusal` could be cured by fetching the JWKS again.
    private static func mayBeNewKey(_ refusal: TokenRefusal) -> Bool {
        switch refusal {
        case .unknownIssuer: true
        case .unknownKeyID: true
        default: false
        }
    }
}
