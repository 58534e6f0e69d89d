import FleetAuthHTTP
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where the keyless signer gets the OAuth access token it calls IAM with.
public protocol AccessTokenSource: Sendable {
    /// A valid access token of the account the server runs as.
    func accessToken() async throws -> String

    /// Forgets `token` after Google refused it, so that the next call fetches a new one.
    func invalidate(_ token: String) async
}

/// The access token of the account the server runs as (Cloud Run, GKE, Compute Engine), from
/// the metadata server: `GET http://$GCE_METADATA_HOST/computeMetadata/v1/instance/service-accounts/default/token`
/// with `Metadata-Flavor: Google`.
///
/// The token is kept and handed out until shortly before its `expires_in` runs out (five
/// minutes, or a quarter of its life if that is less), then fetched again; one fetch runs at a
/// time. A failed fetch is not remembered, and while the token at hand is still valid it is
/// used. The token is never logged or put in an error.
public actor MetadataServerCredentials: AccessTokenSource {
    /// The metadata server's host when `GCE_METADATA_HOST` is not set.
    public static let defaultHost = "metadata.google.internal"

    private let tokenURL: URL
    private let call: GoogleAPICall
    private let now: @Sendable () -> Date
    private var current: (token: String, refreshAt: Date, expiresAt: Date)?
    private var inFlight: Task<String, any Error>?

    /// Credentials from the metadata server at `host`.
    ///
    /// - Parameters:
    ///   - host: The metadata server: `$GCE_METADATA_HOST`, else ``defaultHost``; a
    ///     `host:port` is fine.
    ///   - timeout: How long one request may take. Default 5 s.
    ///   - retryPolicy: When to try again after no answer, 429 or 5xx.
    ///   - transport: Sends the requests; `URLSession.shared` by default.
    ///   - now: The clock the token's life is judged by.
    public init(
        host: String = ProcessInfo.processInfo.environment["GCE_METADATA_HOST"]
            ?? MetadataServerCredentials.defaultHost,
        timeout: Duration = .seconds(5),
        retryPolicy: RetryPolicy = RetryPolicy(),
        transport: any HTTPTransport = URLSessionTransport(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(GoogleAPIError) {
        guard let url = URL(string: "http://\(host)/computeMetadata/v1/instance/service-accounts/default/token") else {
            throw GoogleAPIError(call: "metadata server", message: "'\(host)' is not a host name")
        }
        self.tokenURL = url
        self.call = GoogleAPICall(
            name: "metadata server token", transport: transport, timeout: timeout, retryPolicy: retryPolicy)
        self.now = now
    }

    /// The access token at hand while it is fresh. Once it is due for a refresh but still
    /// valid, it is handed out while a new one is fetched in the background; once it has
    /// expired (or there is none), callers wait for the new one (joining a fetch under way).
    ///
    /// - Throws: ``GoogleAPIError`` when no token can be had.
    public func accessToken() async throws -> String {
        let time = now()
        if let current, time < current.refreshAt { return current.token }
        if let current, time < current.expiresAt {
            if inFlight == nil { _ = startFetch() }
            return current.token
        }
        return try await (inFlight ?? startFetch()).value
    }

    /// Forgets `token` if it is the one at hand.
    public func invalidate(_ token: String) {
        if current?.token == token { current = nil }
    }

    private func startFetch() -> Task<String, any Error> {
        let fetch = Task { try await fetchToken() }
        inFlight = fetch
        return fetch
    }

    private func fetchToken() async throws -> String {
        defer { inFlight = nil }
        var request = URLRequest(url: tokenURL)
        request.setValue("Google", forHTTPHeaderField: "Metadata-Flavor")
        let body = try await call.body(of: request) { status in
            status == 404 ? "The runtime has no service account (is this Cloud Run, GKE or Compute Engine?)" : nil
        }
        struct Answer: Decodable {
            let accessToken: String
            let expiresIn: Double

            enum CodingKeys: String, CodingKey {
                case accessToken = "access_token"
                case expiresIn = "expires_in"
            }
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: body), !answer.accessToken.isEmpty,
            answer.expiresIn > 0
        else {
            throw GoogleAPIError(
                call: "metadata server token", httpStatus: 200, message: "the answer has no access_token and expires_in"
            )
        }
        let received = now()
        let ahead = min(300, answer.expiresIn / 4)
        current = (answer.accessToken, received + answer.expiresIn - ahead, received + answer.expiresIn)
        return answer.accessToken
    }
}
