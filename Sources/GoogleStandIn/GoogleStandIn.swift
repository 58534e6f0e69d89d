import Crypto
import FleetAuthCodecs
import FleetAuthServerHTTP
import FleetTokens
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ServiceLifecycle

/// An offline stand-in for the parts of Google Cloud that keyless signing talks to, in
/// Google's documented request and response shapes, so that it runs on a laptop and in tests:
///
/// - the metadata server's `…/service-accounts/default/token` and `…/email` (only with
///   `Metadata-Flavor: Google`);
/// - IAM Credentials `POST /v1/projects/-/serviceAccounts/{EMAIL}:signJwt`, which checks the
///   bearer is one of its access tokens and signs the payload with a key of its own for EMAIL
///   (made on first use), answering `{"keyId", "signedJwt"}` or a Google JSON error (404
///   `NOT_FOUND` for an account that does not exist);
/// - the public keys of an account, `GET /service_accounts/v1/metadata/jwk/{EMAIL}`;
/// - and, its own addition, `POST /stand-in/v1/accounts/{EMAIL}:rotateKey`.
package struct GoogleStandIn: Sendable {
    /// How long the access tokens it hands out live, as Google's do.
    package static let accessTokenLifetime: TimeInterval = 3599
    /// How long clients may keep an account's public keys (Google sends hours too).
    package static let publicKeysMaxAge = 3600

    /// The account the "server" runs as: what the metadata server's email endpoint names.
    package let runtimeAccount: String
    /// How long an injected "no answer" fault keeps the caller waiting before a 503.
    package let silence: Duration
    /// The stand-in's memory; tests inject faults and count calls through it.
    package let accounts: StandInAccounts
    private let logger: Logger
    private let now: @Sendable () -> Date

    /// A stand-in whose runtime account is `runtimeAccount` and where `serviceAccounts` exist
    /// (more with ``StandInAccounts/create(_:)``; any other is 404, as at Google); each signJwt
    /// answer is held back `signJwtDelay`, as IAM's round trip would, and an injected "no
    /// answer" lasts `silence`.
    package init(
        runtimeAccount: String = "token-server@local-project.iam.gserviceaccount.com",
        serviceAccounts: [String] = [],
        signJwtDelay: Duration = .zero,
        silence: Duration = .seconds(30),
        logger: Logger = Logger(label: "fleetauth.google-stand-in"),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.runtimeAccount = runtimeAccount
        self.silence = silence
        self.accounts = StandInAccounts(signJwtDelay: signJwtDelay, serviceAccounts: serviceAccounts)
        self.logger = logger
        self.now = now
    }

    /// Every route of the stand-in.
    package func buildRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: APIErrorMiddleware())
        let metadata = router.group("computeMetadata/v1/instance/service-accounts/default")
        metadata.get("token") { request, _ in try await Self.asMetadataServer(request) { try await metadataToken() } }
        metadata.get("email") { request, _ in try await Self.asMetadataServer(request) { metadataEmail() } }
        router.post("v1/projects/-/serviceAccounts/:call") { request, context in
            try await signJwt(request, call: try context.parameters.require("call"))
        }
        router.get("service_accounts/v1/metadata/jwk/:email") { _, context in
            try await publicKeys(of: try context.parameters.require("email"))
        }
        router.post("stand-in/v1/accounts/:call") { _, context in
            try await rotateKey(call: try context.parameters.require("call"))
        }
        return router
    }

    /// A Hummingbird application serving the stand-in on `host`:`port` (0 picks a free port).
    package func application(
        host: String = "127.0.0.1",
        port: Int,
        onRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: buildRouter(),
            configuration: .init(address: .hostname(host, port: port), serverName: "fleetauth-google-stand-in"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger
        )
    }

    private func metadataToken() async throws -> Response {
        let token = await accounts.issueAccessToken(lifetime: Self.accessTokenLifetime, now: now())
        return try JSONBody.response(
            MetadataToken(accessToken: token, expiresIn: Int(Self.accessTokenLifetime), tokenType: "Bearer"))
    }

    private func metadataEmail() -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/text"],
            body: .init(byteBuffer: ByteBuffer(string: runtimeAccount)))
    }

    /// Answers as the metadata server does: every answer, refusals included, says
    /// `Metadata-Flavor: Google` (Google's clients check it), and a request without that header
    /// (the metadata server's guard against request forgery) is refused with a 403 HTML page
    /// naming the missing header, not with an API's JSON error.
    private static func asMetadataServer(_ request: Request, _ answer: () async throws -> Response) async throws
        -> Response
    {
        var response: Response
        if request.headers[.metadataFlavor] == "Google" {
            response = try await answer()
        } else {
            let page = """
                <!DOCTYPE html>
                <html lang=en><meta charset=utf-8><title>Error 403 (Forbidden)</title>
                <p><b>403.</b> The metadata server answers only requests that send Metadata-Flavor: Google. Missing Metadata-Flavor:Google header.
                </html>

                """
            response = Response(
                status: .forbidden, headers: [.contentType: "text/html; charset=UTF-8"],
                body: .init(byteBuffer: ByteBuffer(string: page)))
        }
        response.headers[.metadataFlavor] = "Google"
        return response
    }

    private func signJwt(_ request: Request, call: String) async throws -> Response {
        guard call.hasSuffix(":signJwt") else { throw APIError(.notFound, "no such method: \(call)") }
        let email = String(call.dropLast(":signJwt".count))
        guard case .token(let bearer) = BearerCredentials.read(request.headers[values: .authorization]),
            await accounts.isValidAccessToken(bearer, now: now())
        else {
            throw APIError(
                .unauthenticated,
                "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential."
            )
        }
        let fault = await accounts.beginSignJwt()
        defer { Task { await accounts.endSignJwt() } }
        try await Task.sleep(for: accounts.signJwtDelay)
        if let fault { try await answer(fault: fault) }
        try await requireExisting(email)
        guard await accounts.maySign(as: email) else {
            throw APIError(
                .permissionDenied, "Permission 'iam.serviceAccounts.signJwt' denied on resource (or it may not exist).")
        }
        let body = try await request.body.collect(upTo: 64 * 1024)
        guard let payload = try? JSONDecoder().decode(SignJwtRequest.self, from: body).payload,
            (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) is [String: Any]
        else {
            throw APIError(.invalidArgument, "Invalid JWT payload: the payload must be a JSON object in a string.")
        }
        let key = try await accounts.currentKey(of: email)
        let header = #"{"alg":"RS256","kid":"\#(key.id)","typ":"JWT"}"#
        let signingInput = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(payload.utf8))
        guard let signature = key.signer.signature(for: SHA256.hash(data: Data(signingInput.utf8))) else {
            throw APIError(.internal, "signing failed")
        }
        logger.debug("signJwt", metadata: ["account": "\(email)", "keyId": "\(key.id)"])
        return try JSONBody.response(
            SignJwtAnswer(keyId: key.id, signedJwt: signingInput + "." + Base64URL.encode(signature)))
    }

    /// Refuses an account that does not exist as Google does: 404 `NOT_FOUND`.
    private func requireExisting(_ email: String) async throws {
        guard await accounts.exists(email) else {
            throw APIError(.notFound, "Not found; Gaia id not found for email \(email)")
        }
    }

    /// Answers with an injected fault: an HTTP status, or (0) nothing for ``silence``.
    private func answer(fault: Int) async throws {
        switch fault {
        case 0:
            // Silent until the silence ends, or the stand-in shuts down (which does not wait it out).
            try await cancelWhenGracefulShutdown { try await Task.sleep(for: silence) }
            throw APIError(.unavailable, "The service is currently unavailable.")
        case 429:
            throw APIError(
                .resourceExhausted, "Quota exceeded for quota metric 'Sign JWT requests'.", retryAfter: .seconds(1))
        case 403:
            throw APIError(
                .permissionDenied, "Permission 'iam.serviceAccounts.signJwt' denied on resource (or it may not exist).")
        default: throw APIError(.unavailable, "The service is currently unavailable.")
        }
    }

    private func publicKeys(of email: String) async throws -> Response {
        guard await !accounts.publicKeysDown else {
            throw APIError(.unavailable, "The service is currently unavailable.")
        }
        try await requireExisting(email)
        var keys: [JSONWebKey] = []
        for key in try await accounts.publishedKeys(of: email) {
            keys.append(try JSONWebKey(publishing: key.privateKey.publicKey, keyID: key.id))
        }
        var response = Response(
            status: .ok, headers: [.contentType: "application/json; charset=UTF-8"],
            body: .init(byteBuffer: ByteBuffer(data: JSONWebKeySet(keys: keys).jsonRepresentation())))
        response.headers[.cacheControl] = "public, max-age=\(Self.publicKeysMaxAge), must-revalidate, no-transform"
        return response
    }

    private func rotateKey(call: String) async throws -> Response {
        guard call.hasSuffix(":rotateKey") else { throw APIError(.notFound, "no such method: \(call)") }
        let email = String(call.dropLast(":rotateKey".count))
        try await requireExisting(email)
        let key = try await accounts.rotateKey(of: email)
        logger.info("key rotated", metadata: ["account": "\(email)", "keyId": "\(key.id)"])
        return try JSONBody.response(["keyId": key.id])
    }
}

/// The metadata server's token answer.
private struct MetadataToken: Encodable {
    let accessToken: String
    let expiresIn: Int
    let tokenType: String

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", expiresIn = "expires_in", tokenType = "token_type"
    }
}

/// IAM's signJwt request body.
private struct SignJwtRequest: Decodable {
    let payload: String
}

/// IAM's signJwt answer.
private struct SignJwtAnswer: Encodable {
    let keyId: String
    let signedJwt: String
}

/// A JSON response.
private enum JSONBody {
    static func response(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=UTF-8"],
            body: .init(byteBuffer: ByteBuffer(data: try encoder.encode(value))))
    }
}

extension HTTPField.Name {
    /// `Metadata-Flavor`, which the metadata server requires.
    static let metadataFlavor = HTTPField.Name("Metadata-Flavor")!
}
