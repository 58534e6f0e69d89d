import FleetAuthHTTP
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Signs Fleet Engine tokens through Google's IAM Credentials API, with no key file: the
/// claims go to `POST {iam}/v1/projects/-/serviceAccounts/{EMAIL}:signJwt` as
/// `{"payload": "<claims JSON>"}`, and the `signedJwt` of the answer is the token, unchanged
/// (IAM writes the header, its `kid` the key Google signed with).
///
/// The account the server runs as needs `roles/iam.serviceAccountTokenCreator` on the signing
/// account; its access token comes from an ``AccessTokenSource`` (the metadata server on
/// Google Cloud). Each call is a network round trip under a per-project quota, so:
/// - a call that gets no answer, 429 or 5xx is tried again with capped backoff;
/// - at most `maxConcurrentCalls` calls run at once, others wait their turn;
/// - callers asking to sign the same claims while a call for them runs share its answer.
public struct IAMSigner: FleetTokenSigner {
    /// Google's IAM Credentials endpoint.
    public static let defaultIAMCredentialsURL = URL(string: "https://iamcredentials.googleapis.com")!

    /// The account that signs, as IAM knows it.
    public let accountEmail: String
    private let signJwtURL: URL
    private let credentials: any AccessTokenSource
    private let call: GoogleAPICall
    private let calls: SharedCalls

    /// A signer for `accountEmail` through the IAM Credentials API at `iamCredentialsURL`.
    ///
    /// - Parameters:
    ///   - accountEmail: The service account to sign as, e.g. `fe-driver@PROJECT.iam.gserviceaccount.com`.
    ///   - credentials: Where the access token for IAM comes from.
    ///   - iamCredentialsURL: The IAM Service Account Credentials API; Google's by default.
    ///   - timeout: How long one request may take. Default 10 s.
    ///   - retryPolicy: When to try again after no answer, 429 or 5xx.
    ///   - maxConcurrentCalls: How many signJwt requests may be on the wire at once (a call
    ///     waiting to try again holds none). Default 64.
    ///   - transport: Sends the requests; by default a `URLSession` of its own that opens as
    ///     many connections to IAM as calls may run at once (`URLSession.shared` allows six).
    public init(
        accountEmail: String,
        credentials: any AccessTokenSource,
        iamCredentialsURL: URL = IAMSigner.defaultIAMCredentialsURL,
        timeout: Duration = .seconds(10),
        retryPolicy: RetryPolicy = RetryPolicy(),
        maxConcurrentCalls: Int = 64,
        transport: (any HTTPTransport)? = nil
    ) throws(GoogleAPIError) {
        let name = "IAM signJwt as \(accountEmail)"
        guard accountEmail.contains("@"),
            let escaped = accountEmail.addingPercentEncoding(
                withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/:")))
        else {
            throw GoogleAPIError(call: name, message: "'\(accountEmail)' is not a service account email")
        }
        self.accountEmail = accountEmail
        self.signJwtURL = iamCredentialsURL.appendingPathComponent("v1/projects/-/serviceAccounts/\(escaped):signJwt")
        self.credentials = credentials
        let limit = max(1, maxConcurrentCalls)
        self.call = GoogleAPICall(
            name: name, transport: transport ?? Self.transport(connections: limit), timeout: timeout,
            retryPolicy: retryPolicy,
            maxConcurrentRequests: limit)
        self.calls = SharedCalls()
    }

    /// Signs `claims` through IAM and returns the token IAM made.
    ///
    /// - Throws: ``GoogleAPIError`` (its message says what to fix for a refusal), or the
    ///   access token source's error.
    public func sign(_ claims: FleetEngineClaims) async throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        let payload = String(decoding: try encoder.encode(claims), as: UTF8.self)
        return try await calls.run(key: payload) { try await signJwt(payload) }
    }

    private func signJwt(_ payload: String) async throws -> String {
        let accessToken = try await credentials.accessToken()
        var request = URLRequest(url: signJwtURL)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
        request.httpBody = try JSONEncoder().encode(["payload": payload])
        let body: Data
        do {
            body = try await call.body(of: request) { [accountEmail] status in
                Self.hint(status: status, account: accountEmail)
            }
        } catch let error as GoogleAPIError where error.httpStatus == 401 {
            await credentials.invalidate(accessToken)
            throw error
        }
        struct Answer: Decodable {
            let keyId: String
            let signedJwt: String
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: body),
            answer.signedJwt.split(separator: ".", omittingEmptySubsequences: false).count == 3
        else {
            throw GoogleAPIError(call: call.name, httpStatus: 200, message: "the answer has no keyId and signedJwt")
        }
        return answer.signedJwt
    }

    /// A transport on a `URLSession` that keeps up to `connections` connections to one host.
    private static func transport(connections: Int) -> URLSessionTransport {
        let configuration = URLSessionConfiguration.default
        configuration.httpMaximumConnectionsPerHost = connections
        return URLSessionTransport(session: URLSession(configuration: configuration))
    }

    /// What to do about a refusal of signJwt.
    private static func hint(status: Int, account: String) -> String? {
        switch status {
        case 401:
            "The access token of the account this server runs as was refused; it is fetched again on the next request."
        case 403:
            "Grant roles/iam.serviceAccountTokenCreator on \(account) to the account this server runs as (and enable the IAM Service Account Credentials API)."
        case 404: "The service account \(account) does not exist; check the --signer email."
        default: nil
        }
    }
}
