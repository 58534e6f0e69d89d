import FleetAuthServerHTTP
import Foundation

/// Where an OpenID Connect issuer publishes its keys: the `jwks_uri` of its discovery
/// document (`{issuer}/.well-known/openid-configuration`), fetched once and kept until
/// ``forget()`` (a fetch of the keys failed: the keys may have moved).
actor IssuerDiscovery {
    /// The issuer, as its tokens' `iss` spells it.
    let issuer: String
    private let timeout: Duration
    private let maximumSize: Int
    private var jwksURI: String?

    /// The discovery of `issuer`, each fetch bounded by `timeout` and `maximumSize` bytes.
    init(issuer: String, timeout: Duration, maximumSize: Int) {
        self.issuer = issuer
        self.timeout = timeout
        self.maximumSize = maximumSize
    }

    /// The issuer's `jwks_uri`: an https URL named by a discovery document of this issuer.
    func jwksURI() async throws -> String {
        if let jwksURI { return jwksURI }
        let url = OIDCSettings.discoveryURL(of: issuer)
        let body = try await FetchedDocument.fetch(url, timeout: timeout, maximumSize: maximumSize).body
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

    /// Forgets the `jwks_uri`, so that the next fetch discovers it again.
    func forget() {
        jwksURI = nil
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
