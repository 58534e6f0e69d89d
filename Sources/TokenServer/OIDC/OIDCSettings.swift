import Foundation

/// The OpenID Connect issuers whose ID tokens the token server accepts in place of a session
/// token: the app's own sign-in (Firebase Authentication, Auth0, Keycloak, …).
///
/// An ID token is accepted when its `iss` is one of ``issuers`` (exact match) and its `aud`
/// holds one of ``audiences``; its keys come from the issuer's discovery document.
package struct OIDCSettings: Sendable, Hashable {
    /// The trusted issuers, each exactly as its tokens' `iss` spells it (mind trailing slashes).
    package var issuers: [String]
    /// The accepted audiences (the app's client id; for Firebase, the project id).
    package var audiences: [String]
    /// How far `exp`, `iat` and `nbf` may be off, for clocks that differ.
    package var allowedClockSkew: Duration
    /// The least time between two fetches of one issuer's keys for a `kid` it does not know,
    /// so that tokens with made-up key ids cannot make the server hammer the issuer.
    package var keyRefetchInterval: Duration
    /// How long one request to an issuer may take, connecting included.
    package var requestTimeout: Duration

    /// Settings; with no issuers, ID tokens are not accepted.
    package init(
        issuers: [String] = [],
        audiences: [String] = [],
        allowedClockSkew: Duration = .seconds(60),
        keyRefetchInterval: Duration = .seconds(10),
        requestTimeout: Duration = .seconds(5)
    ) {
        self.issuers = issuers
        self.audiences = audiences
        self.allowedClockSkew = allowedClockSkew
        self.keyRefetchInterval = keyRefetchInterval
        self.requestTimeout = requestTimeout
    }

    /// Whether any issuer is trusted.
    package var isEnabled: Bool { !issuers.isEmpty }

    /// Throws what is wrong with these settings, if anything.
    package func check() throws(OIDCSettingsError) {
        if let problem { throw OIDCSettingsError(description: problem) }
    }

    /// What is wrong with these settings, in words, or `nil`.
    package var problem: String? {
        if issuers.isEmpty { return audiences.isEmpty ? nil : "an audience is given but no issuer to trust" }
        if audiences.isEmpty {
            return "trusted issuers need at least one audience (the app's client id; for Firebase, the project id)"
        }
        for issuer in issuers {
            if let problem = Self.problem(withIssuer: issuer) { return problem }
        }
        if audiences.contains(where: \.isEmpty) { return "an audience is empty" }
        if allowedClockSkew < .zero || allowedClockSkew > .seconds(300) {
            return "the allowed clock skew must be 0 to 300 seconds"
        }
        return nil
    }

    /// Why `issuer` cannot be trusted, or `nil`: it must be an absolute https URL without query
    /// or fragment (http only for a loopback host, for development and tests).
    package static func problem(withIssuer issuer: String) -> String? {
        guard let url = URLComponents(string: issuer), url.scheme != nil, let host = url.host, !host.isEmpty else {
            return "issuer \"\(issuer)\" is not an absolute URL"
        }
        guard url.query == nil, url.fragment == nil, url.user == nil, url.password == nil else {
            return "issuer \"\(issuer)\" must not have a query, a fragment or credentials"
        }
        guard isSecure(url) else { return "issuer \"\(issuer)\" must be an https URL (http only on loopback)" }
        return nil
    }

    /// Whether `url` is https, or http to a loopback host.
    static func isSecure(_ url: URLComponents) -> Bool {
        switch url.scheme?.lowercased() {
        case "https": true
        case "http": ["localhost", "127.0.0.1", "::1", "[::1]"].contains(url.host?.lowercased() ?? "")
        default: false
        }
    }

    /// The URL of `issuer`'s discovery document (OpenID Connect Discovery 1.0 §4).
    static func discoveryURL(of issuer: String) -> String {
        (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + "/.well-known/openid-configuration"
    }
}

/// Settings of trusted OpenID Connect issuers that cannot work (what is wrong, in words).
package struct OIDCSettingsError: Error, Sendable, CustomStringConvertible {
    /// The problem.
    package let description: String
}
