import Crypto
import CryptoExtras
import FleetAuthCodecs
import FleetAuthLocking
import FleetTokens
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import TestSupport
import Testing

/// A key an OpenID Connect issuer signs ID tokens with: RSA (RS256) or P-256 (ES256).
struct IssuerKey: Sendable {
    enum Secret: Sendable {
        case rsa(_RSA.Signing.PrivateKey)
        case p256(P256.Signing.PrivateKey)
    }

    let keyID: String
    let secret: Secret

    /// An RSA key (reusing a test service-account key: RSA generation is slow).
    static func rsa(_ keyID: String, from role: FleetEngineRole) -> IssuerKey {
        IssuerKey(keyID: keyID, secret: .rsa(TestKeys.byRole[role]!.privateKey.backing))
    }

    /// A new P-256 key.
    static func p256(_ keyID: String) -> IssuerKey {
        IssuerKey(keyID: keyID, secret: .p256(P256.Signing.PrivateKey()))
    }

    var algorithm: String {
        switch secret {
        case .rsa: JOSEHeader.rs256
        case .p256: JOSEHeader.es256
        }
    }

    /// The public half as a JWK.
    var jsonWebKey: JSONWebKey {
        switch secret {
        case .rsa(let key):
            let primitives = try! key.publicKey.getKeyPrimitives()
            return JSONWebKey(
                keyID: keyID, modulus: Base64URL.encode(primitives.modulus),
                exponent: Base64URL.encode(primitives.publicExponent))
        case .p256(let key):
            let point = key.publicKey.x963Representation
            return JSONWebKey(keyID: keyID, p256X: Base64URL.encode(point[1...32]), y: Base64URL.encode(point[33...64]))
        }
    }

    /// The signature of `input` by this key, in JWS form.
    func signature(of input: Data) -> Data {
        switch secret {
        case .rsa(let key): try! key.signature(for: input, padding: .insecurePKCS1v1_5).rawRepresentation
        case .p256(let key): try! key.signature(for: input).rawRepresentation
        }
    }
}

/// An OpenID Connect issuer the tests start on loopback: a real HTTP server with a discovery
/// document and a JWKS, which tests rotate, take down, and count the fetches of.
final class OIDCIssuerStandIn: Sendable {
    private struct State {
        var keys: [IssuerKey] = []
        var isDown = false
        var cacheControl: String?
    }

    /// `http://127.0.0.1:PORT/realms/test`, as its tokens' `iss` spells it.
    let issuer: String
    private let state = Locked(State())
    private let jwksFetchCount = Atomic(0)

    private init(issuer: String) {
        self.issuer = issuer
    }

    /// How many times the JWKS was asked for.
    var jwksFetches: Int { jwksFetchCount.load(ordering: .relaxed) }

    /// Serves the keys `keys` from now on.
    func publish(_ keys: [IssuerKey]) {
        state.withLock { $0.keys = keys }
    }

    /// Answers 500 to everything while `down`.
    func setDown(_ down: Bool) {
        state.withLock { $0.isDown = down }
    }

    /// Sends `Cache-Control: value` with the JWKS.
    func setCacheControl(_ value: String?) {
        state.withLock { $0.cacheControl = value }
    }

    /// Runs an issuer publishing `keys` on a free loopback port while `body` runs.
    static func with<Result: Sendable>(
        keys: [IssuerKey], _ body: @Sendable @escaping (OIDCIssuerStandIn) async throws -> Result
    ) async throws -> Result {
        let box = Locked<OIDCIssuerStandIn?>(nil)
        let router = Router()
        router.get("realms/test/.well-known/openid-configuration") { _, _ in
            guard let standIn = box.withLock({ $0 }), !standIn.state.withLock(\.isDown) else {
                return Response(status: .internalServerError)
            }
            let document =
                #"{"issuer":"\#(standIn.issuer)","jwks_uri":"\#(standIn.issuer)/protocol/openid-connect/certs","id_token_signing_alg_values_supported":["RS256","ES256"]}"#
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: document)))
        }
        router.get("realms/test/protocol/openid-connect/certs") { _, _ in
            guard let standIn = box.withLock({ $0 }) else { return Response(status: .internalServerError) }
            standIn.jwksFetchCount.add(1, ordering: .relaxed)
            let state = standIn.state.withLock { $0 }
            guard !state.isDown else { return Response(status: .internalServerError) }
            var headers: HTTPFields = [.contentType: "application/json"]
            if let cacheControl = state.cacheControl { headers[.cacheControl] = cacheControl }
            let json = JSONWebKeySet(keys: state.keys.map(\.jsonWebKey)).jsonRepresentation()
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: json)))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await app.test(.live) { client in
            let port = try #require(client.port)
            let standIn = OIDCIssuerStandIn(issuer: "http://127.0.0.1:\(port)/realms/test")
            standIn.publish(keys)
            box.withLock { $0 = standIn }
            return try await body(standIn)
        }
    }

    /// An ID token of this issuer: `claims` (iss defaults to the issuer) signed by `key`,
    /// with `alg` and `kid` as given (defaults: the key's).
    func idToken(
        _ claims: [String: any Sendable], signedBy key: IssuerKey, keyID: String? = nil, algorithm: String? = nil
    ) -> String {
        var claims = claims
        if claims["iss"] == nil { claims["iss"] = issuer }
        return Self.compact(
            header: ["alg": algorithm ?? key.algorithm, "kid": keyID ?? key.keyID, "typ": "JWT"], claims: claims
        ) { key.signature(of: $0) }
    }

    /// A compact JWS of `header` and `claims` with the signature `sign` makes of its input.
    static func compact(header: [String: any Sendable], claims: [String: any Sendable], sign: (Data) -> Data) -> String
    {
        func segment(_ object: [String: any Sendable]) -> String {
            Base64URL.encode(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        }
        let input = segment(header) + "." + segment(claims)
        return input + "." + Base64URL.encode(sign(Data(input.utf8)))
    }
}
