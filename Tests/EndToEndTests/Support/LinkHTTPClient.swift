import Foundation
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A server's HTTP API as a test drives it across a link, at `base`
/// (`http://10.x.y.z:8080`); the token server's accounts and logins.
struct LinkHTTPClient: Sendable {
    let base: String
    /// One session for every client: room for a test's concurrent requests to one server.
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 16
        return URLSession(configuration: configuration)
    }()

    /// An answer: its status, `Retry-After` and body.
    struct Answer: Sendable, CustomStringConvertible {
        let status: Int
        let retryAfter: String?
        let body: String
        var description: String { "\(status) \(body)" }
    }

    init(base: String) {
        self.base = base
    }

    /// Sends `method path` with a bearer token, more headers and a JSON object, as asked.
    func send(
        _ method: String, _ path: String, bearer: String? = nil, headers: [String: String] = [:],
        json: [String: String]? = nil
    ) async throws -> Answer {
        var request = URLRequest(url: URL(string: base + path)!, timeoutInterval: 30)
        request.httpMethod = method
        bearer.map { request.setValue("Bearer \($0)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONEncoder().encode(json)
        }
        let (body, response) = try await Self.session.data(for: request)
        let http = response as? HTTPURLResponse
        return Answer(
            status: http?.statusCode ?? 0, retryAfter: http?.value(forHTTPHeaderField: "Retry-After"),
            body: String(decoding: body, as: UTF8.self))
    }

    /// ``send(_:_:bearer:headers:json:)``, failing unless the answer has `status`.
    @discardableResult
    func send(
        _ method: String, _ path: String, bearer: String? = nil, headers: [String: String] = [:],
        json: [String: String]? = nil,
        expecting status: Int
    ) async throws -> Answer {
        let answer = try await send(method, path, bearer: bearer, headers: headers, json: json)
        guard answer.status == status else { throw TestFailure("\(method) \(path): \(answer)") }
        return answer
    }

    /// The password of every account a test makes.
    static let password = "a-password-for-bad-networks"

    /// Makes account `username` with `role`, assigned to `resource` (`vehicles/v-1`: its
    /// driver), with the admin key in `adminKeyFile`, and returns a session of it.
    func enroll(_ username: String, role: String, assignedTo resource: String, adminKeyFile: String) async throws
        -> String
    {
        let adminKey = try String(contentsOfFile: adminKeyFile, encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let assignment = resource.hasPrefix("vehicles/") ? "driver" : "consumer"
        try await send(
            "POST", "/v1/admin/accounts", bearer: adminKey,
            json: ["username": username, "password": Self.password, "role": role], expecting: 201)
        try await send(
            "PUT", "/v1/admin/\(resource)/\(assignment)", bearer: adminKey, json: ["username": username], expecting: 200
        )
        return try await logIn(username)
    }

    /// Logs `username` in and returns the session token.
    func logIn(_ username: String) async throws -> String {
        let login = try await send(
            "POST", "/v1/sessions", json: ["username": username, "password": Self.password], expecting: 201)
        struct Session: Decodable { let sessionToken: String }
        return try JSONDecoder().decode(Session.self, from: Data(login.body.utf8)).sessionToken
    }
}
