import CommandSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// The token server's answers to requests its routes do not take: wrong methods, headers over
/// the limit, unknown paths and unreadable HTTP, each a Google-shaped JSON error.
@Suite("Token server HTTP answers")
struct TokenServerHTTPAnswersTests {
    @Test(
        "a known path with a wrong method is 405 with the methods it takes",
        arguments: [
            ("DELETE", "/v1/sessions", "POST"),
            ("GET", "/v1/sessions/current", "DELETE"),
            ("POST", "/.well-known/jwks.json", "GET"),
            ("PUT", "/healthz", "GET"),
            ("POST", "/v1/tokens/driver/v-1", "GET"),
            ("PATCH", "/v1/admin/vehicles/v-1/driver", "DELETE, PUT"),
            ("PUT", "/v1/admin/accounts", "GET, POST"),
        ])
    func wrongMethod(method: String, path: String, allowed: String) async throws {
        try await TestServer.serve { client, _ in
            let port = try #require(client.http.port)
            let response = try await RawHTTP.exchange(
                port: port, head: ["\(method) \(path) HTTP/1.1", "Host: x", "Content-Length: 0"])
            #expect(response.status == 405, "\(response)")
            #expect(response.headers["allow"] == allowed)
            #expect(response.googleError?.code == 405)
            #expect(response.googleError?.status == "UNIMPLEMENTED")
        }
    }

    @Test("headers over 64 KiB are 431 in JSON without the header; unknown paths and bad HTTP are JSON too")
    func oversizedAndUnreadable() async throws {
        try await TestServer.serve { client, _ in
            let port = try #require(client.http.port)
            let secret = "ses_" + String(repeating: "s", count: 100 * 1024)
            let oversized = try await RawHTTP.exchange(
                port: port, head: ["GET /v1/tokens/driver/v-1 HTTP/1.1", "Host: x", "Authorization: Bearer \(secret)"])
            #expect(oversized.status == 431, "\(oversized)")
            #expect(oversized.googleError?.status == "INVALID_ARGUMENT")
            #expect(!oversized.body.contains("sssssss"))

            let unknown = try await RawHTTP.exchange(port: port, head: ["GET /v1/nothing HTTP/1.1", "Host: x"])
            #expect(unknown.status == 404 && unknown.googleError?.status == "NOT_FOUND", "\(unknown)")

            let garbled = try await RawHTTP.exchange(
                port: port, request: Array("GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n".utf8))
            #expect(garbled.status == 400 && garbled.googleError?.status == "INVALID_ARGUMENT", "\(garbled)")

            let health = try await client.send(.get, "/healthz")
            #expect(health.status == .ok)
        }
    }
}
