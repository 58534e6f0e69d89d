import CommandSupport
import FleetAuthServerHTTP
import Foundation
import TestSupport
import Testing

@testable import TokenServer

/// What the token server tells browsers (CORS), read off the wire: the allowed origins' pages
/// may log in and get tokens, whichever side answers the token route; other origins get no
/// CORS header and are counted; the admin routes never answer CORS; the module is public.
/// (The browser suites run the same through headless Chromium.)
@Suite("Token server CORS")
struct CrossOriginTests {
    static let rider = "https://rider.example.com"

    private func options(allowing origins: [String]) throws -> TokenServerOptions {
        var options = TestServer.options()
        options.allowedOrigins = try AllowedOrigins(parsing: origins)
        return options
    }

    private func preflight(
        _ port: Int, path: String, origin: String, method: String = "GET", headers: String = "authorization"
    ) async throws -> RawHTTP.Response {
        try await RawHTTP.exchange(
            port: port,
            head: [
                "OPTIONS \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Origin: \(origin)",
                "Access-Control-Request-Method: \(method)",
                "Access-Control-Request-Headers: \(headers)",
            ])
    }

    private func refusedCount(_ server: TestServer) -> Int {
        let line = server.server.metrics.exposition().split(separator: "\n").first {
            $0.hasPrefix("fleetauth_cors_refused_total ")
        }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }

    @Test("an allowed origin's preflights of the session and token routes are answered with what a page may send")
    func allowedPreflights() async throws {
        try await TestServer.serve(options: try options(allowing: [Self.rider])) { client, _ in
            let port = try #require(client.http.port)
            for (path, method, headers) in [
                ("/v1/tokens/consumer/trip-1", "GET", "authorization"),
                ("/v1/tokens/fleet-reader", "GET", "authorization"),
                ("/v1/sessions", "POST", "content-type"), ("/v1/sessions/current", "DELETE", "authorization"),
            ] {
                let answer = try await preflight(port, path: path, origin: Self.rider, method: method, headers: headers)
                #expect(answer.status == 204, "\(path): \(answer)")
                #expect(answer.headers["access-control-allow-origin"] == Self.rider)
                #expect(answer.headers["access-control-allow-methods"]?.contains(method) == true)
                #expect(answer.headers["access-control-allow-headers"] == "authorization, content-type")
                #expect(answer.headers["access-control-max-age"] == "600")
                #expect(answer.headers["vary"] == "Origin")
                #expect(answer.headers["access-control-allow-credentials"] == nil)
            }
        }
    }

    @Test(
        "a token answer carries the allowed origin, from the pipeline and from the router alike, and exposes Retry-After"
    )
    func tokenAnswers() async throws {
        try await TestServer.serve(options: try options(allowing: [Self.rider])) { client, _ in
            let session = try await client.enroll("rita", role: "consumer", assigned: ["trips/trip-1/consumer"])
            let port = try #require(client.http.port)
            for path in ["/v1/tokens/consumer/trip-1", "/v1/tokens/consumer/trip%2D1", "/v1/tokens/consumer/trip-2"] {
                let answer = try await RawHTTP.exchange(
                    port: port,
                    head: [
                        "GET \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Origin: \(Self.rider)",
                        "Authorization: Bearer \(session)",
                    ])
                #expect(answer.status == (path.hasSuffix("trip-2") ? 403 : 200), "\(path): \(answer)")
                #expect(answer.headers["access-control-allow-origin"] == Self.rider, "\(path)")
                #expect(answer.headers["access-control-expose-headers"] == "Retry-After", "\(path)")
                #expect(answer.headers["vary"] == "Origin", "\(path)")
            }
            // Without an Origin (an app, curl): no CORS header, but Vary all the same.
            let plain = try await RawHTTP.exchange(
                port: port,
                head: [
                    "GET /v1/tokens/consumer/trip-1 HTTP/1.1", "Host: x", "Authorization: Bearer \(session)",
                ])
            #expect(
                plain.status == 200 && plain.headers["access-control-allow-origin"] == nil
                    && plain.headers["vary"] == "Origin")
        }
    }

    @Test(
        "another origin gets no CORS header, its preflight a 403 that says how to allow it, and each is counted; the server's own origin is not"
    )
    func otherOriginsRefused() async throws {
        try await TestServer.serve(options: try options(allowing: [Self.rider])) { client, server in
            let session = try await client.enroll("rita", role: "consumer", assigned: ["trips/trip-1/consumer"])
            let port = try #require(client.http.port)
            let before = refusedCount(server)
            let answer = try await preflight(
                port, path: "/v1/tokens/consumer/trip-1", origin: "https://evil.example.net")
            #expect(answer.status == 403)
            #expect(answer.headers["access-control-allow-origin"] == nil)
            #expect(
                answer.googleError?.message.contains("--allow-origin https://evil.example.net") == true, "\(answer)")
            let get = try await RawHTTP.exchange(
                port: port,
                head: [
                    "GET /v1/tokens/consumer/trip-1 HTTP/1.1", "Host: x", "Origin: http://rider.example.com",
                    "Authorization: Bearer \(session)",
                ])
            #expect(
                get.status == 200 && get.headers["access-control-allow-origin"] == nil,
                "http is not https: \(get.headers)")
            // A page of the server's own origin (browsers send Origin on its POSTs) needs no CORS
            // and is not counted.
            let same = try await RawHTTP.exchange(
                port: port,
                head: [
                    "POST /v1/sessions HTTP/1.1", "Host: 127.0.0.1:\(port)", "Origin: http://127.0.0.1:\(port)",
                    "Content-Type: application/json",
                    "Content-Length: 2",
                ], body: "{}")
            #expect(same.status == 400 && same.headers["access-control-allow-origin"] == nil)
            // A disallowed header is refused too, naming what is allowed.
            let header = try await preflight(
                port, path: "/v1/sessions", origin: Self.rider, method: "POST", headers: "content-type, x-api-key")
            #expect(header.status == 403 && header.headers["access-control-allow-origin"] == nil)
            #expect(refusedCount(server) == before + 2)
        }
    }

    @Test(
        "the admin routes never answer CORS, even for an allowed origin, and refuse a page of another origin even with the key"
    )
    func adminRoutesNeverAnswer() async throws {
        try await TestServer.serve(options: try options(allowing: [Self.rider])) { client, _ in
            let port = try #require(client.http.port)
            let options = try await preflight(port, path: "/v1/admin/accounts", origin: Self.rider, method: "POST")
            #expect(options.status == 405)
            #expect(options.headers["access-control-allow-origin"] == nil)
            let delete = try await RawHTTP.exchange(
                port: port,
                head: [
                    "DELETE /v1/admin/accounts/nobody HTTP/1.1", "Host: x", "Origin: \(Self.rider)",
                    "Authorization: Bearer \(client.adminKey)",
                ])
            #expect(delete.status == 403, "\(delete)")
            #expect(delete.body.contains("the admin API answers no page of another origin"), "\(delete)")
            #expect(delete.headers["access-control-allow-origin"] == nil)
            #expect(delete.headers["vary"] == nil)
        }
    }

    @Test("loopback origins on any port are allowed when asked for, and only loopback's")
    func loopbackAndSameOrigin() async throws {
        var options = TestServer.options()
        options.allowedOrigins = .loopback
        try await TestServer.serve(options: options) { client, server in
            let port = try #require(client.http.port)
            for origin in ["http://localhost:5173", "http://127.0.0.1:8000", "http://LOCALHOST:1"] {
                let answer = try await preflight(
                    port, path: "/v1/sessions", origin: origin, method: "POST", headers: "content-type")
                #expect(
                    answer.status == 204 && answer.headers["access-control-allow-origin"] == origin,
                    "\(origin): \(answer)")
            }
            let before = refusedCount(server)
            let remote = try await preflight(
                port, path: "/v1/sessions", origin: "http://localhost.example.com:80", method: "POST",
                headers: "content-type")
            #expect(remote.status == 403)
            #expect(refusedCount(server) == before + 1)
        }
    }

    @Test("the server's root lists what it answers")
    func index() async throws {
        try await TestServer.serve { client, _ in
            let port = try #require(client.http.port)
            let answer = try await RawHTTP.exchange(port: port, head: ["GET / HTTP/1.1", "Host: x"])
            #expect(answer.status == 200)
            for route in [
                "POST /v1/sessions", "GET /v1/tokens/driver/{vehicleId}", "GET /v1/tokens/fleet-reader",
                "GET /sdk/fleetauth.js",
            ] {
                #expect(answer.body.contains(route), "\(route): \(answer.body)")
            }
        }
    }

    @Test("the browser module is public JavaScript: any origin may load it")
    func moduleIsPublic() async throws {
        try await TestServer.serve { client, _ in
            let port = try #require(client.http.port)
            let answer = try await RawHTTP.exchange(
                port: port, head: ["GET /sdk/fleetauth.js HTTP/1.1", "Host: x", "Origin: https://any.example"])
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"] == "text/javascript; charset=utf-8")
            #expect(answer.headers["access-control-allow-origin"] == "*")
            #expect(answer.body.contains("export function createAuthTokenFetcher"))
            // The example page is `serve`'s and `demo`'s, not every token server's.
            let example = try await RawHTTP.exchange(port: port, head: ["GET /examples/ HTTP/1.1", "Host: x"])
            #expect(example.status == 404)
        }
    }
}
