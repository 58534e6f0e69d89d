import CommandSupport
import FleetAuthCodecs
import FleetTokenProvider
import FleetTokens
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import TokenServer

/// The token routes answered in the channel pipeline (``TokenPipelineRoute``) beside the
/// router's: answers in request order whichever side gives them, the same headers, the
/// connection closed when asked, and the router's own token routes still serving a server
/// that mounts ``TokenServer/buildRouter()`` itself.
@Suite("Token routes in the channel pipeline")
struct TokenPipelineRouteTests {
    @Test("pipelined requests are answered in order, whether the pipeline or the router answers each")
    func pipelinedInOrder() async throws {
        try await TestServer.serve { client, _ in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            let port = try #require(client.http.port)
            let requests = [
                "GET /v1/tokens/driver/v-1",  // the pipeline: a token
                "GET /healthz",  // the router
                "GET /v1/tokens/driver/v%2D1",  // percent-escaped: left to the router, the same vehicle
                "GET /v1/tokens/driver/v-2",  // the pipeline: not assigned
                "GET /v1/tokens/driver/v-1/extra",  // no such route: the router's 404
                "GET /v1/tokens/fleet-reader",  // the pipeline: the wrong role
                "GET /v1/tokens/driver/v-1?alt=json",  // the pipeline, the query ignored as the router does
            ]
            let bytes = requests.map { "\($0) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(session)\r\n\r\n" }
                .joined()
            let answers = try await RawHTTP.exchange(port: port, request: Array(bytes.utf8), responses: requests.count)
            #expect(answers.map(\.status) == [200, 200, 200, 403, 404, 403, 200], "\(answers)")
            #expect(answers[1].body.contains("\"status\":\"ok\""))
            #expect(answers[3].googleError?.message == "account \"ann\" is not assigned to vehicle \"v-2\"")
            #expect(answers[5].googleError?.message.contains("fleet-reader") == true)
            for index in [0, 2, 6] {
                #expect(answers[index].body.hasPrefix(#"{"expiresAt":"#), "\(answers[index])")
            }
        }
    }

    @Test("a pipeline answer has the router's headers: JSON, no-store, Date and Server")
    func headers() async throws {
        try await TestServer.serve { client, _ in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            let port = try #require(client.http.port)
            let head = ["Host: x", "Authorization: Bearer \(session)"]
            let piped = try await RawHTTP.exchange(port: port, head: ["GET /v1/tokens/driver/v-1 HTTP/1.1"] + head)
            let routed = try await RawHTTP.exchange(port: port, head: ["GET /v1/tokens/driver/v%2D1 HTTP/1.1"] + head)
            #expect(piped.status == 200 && routed.status == 200)
            for name in ["content-type", "cache-control", "server"] {
                #expect(piped.headers[name] != nil && piped.headers[name] == routed.headers[name], "\(name)")
            }
            let date = try #require(piped.headers["date"])
            let sent = try #require(HTTPDate.parse(date), "Date: \(date)")
            #expect(abs(sent.timeIntervalSinceNow) < 60)
        }
    }

    /// The same refusals asked of both sides: by the pipeline (`v-2`) and, percent-escaped,
    /// by the router (`v%2D2`, the same vehicle).
    @Test(
        "a refusal from the pipeline is the router's: the same status, headers and body",
        arguments: [
            ("no credential", nil),
            ("a session that does not exist", "Authorization: Bearer not-a-session"),
            ("a vehicle not assigned", "session"),
            ("a credential that is not a bearer one", "Authorization: Basic YW5uOnNlY3JldA=="),
        ] as [(String, String?)])
    func refusalsAlike(_ case: String, authorization: String?) async throws {
        try await TestServer.serve { client, _ in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            let port = try #require(client.http.port)
            let credential = authorization == "session" ? "Authorization: Bearer \(session)" : authorization
            let head = ["Host: x"] + (credential.map { [$0] } ?? [])
            let piped = try await RawHTTP.exchange(port: port, head: ["GET /v1/tokens/driver/v-2 HTTP/1.1"] + head)
            let routed = try await RawHTTP.exchange(port: port, head: ["GET /v1/tokens/driver/v%2D2 HTTP/1.1"] + head)
            #expect([401, 403].contains(piped.status), "\(`case`): \(piped)")
            #expect(piped.status == routed.status, "\(`case`): \(piped) against \(routed)")
            #expect(piped.body == routed.body, "\(`case`)")
            #expect(
                piped.headers.filter { $0.key != "date" } == routed.headers.filter { $0.key != "date" },
                "\(`case`): \(piped.headers) against \(routed.headers)")
        }
    }

    /// HTTP/1.1 with `Connection: close`, and HTTP/1.0 without keep-alive.
    @Test(
        "a token request that asks to close is answered, then the connection closes",
        arguments: [
            ("HTTP/1.1", "Connection: close\r\n"),
            ("HTTP/1.0", ""),
        ])
    func connectionClose(version: String, closing: String) async throws {
        try await TestServer.serve { client, _ in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            let port = try #require(client.http.port)
            let request =
                "GET /v1/tokens/driver/v-1 \(version)\r\nHost: x\r\nAuthorization: Bearer \(session)\r\n\(closing)\r\n"
            // Asks for two answers: only the closed connection ends the read before its time-out.
            let answers = try await RawHTTP.exchange(
                port: port, request: Array((request + request).utf8), responses: 2, timeout: 10)
            #expect(answers.map(\.status) == [200], "\(answers)")
            #expect(answers.first?.headers["connection"] == "close")
        }
    }

    /// The answer is computed in a task of its own; the client's going away must neither stop
    /// the server nor keep its shutdown (which waits for answers in flight) waiting.
    @Test(
        "clients that hang up before their answers leave the server serving, and its shutdown prompt",
        .timeLimit(.minutes(3)))
    func clientsHangingUp() async throws {
        try await TestServer.serve { client, _ in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            let port = try #require(client.http.port)
            let request = "GET /v1/tokens/driver/v-1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(session)\r\n\r\n"
            for _ in 0..<20 {
                try await RawHTTP.sendAndHangUp(port: port, request: Array((request + request).utf8))
            }
            let answer = try await RawHTTP.exchange(port: port, request: Array(request.utf8))
            #expect(answer.status == 200, "\(answer)")
        }
    }

    @Test("the router's own token routes answer a server that mounts buildRouter() itself")
    func routerAlone() async throws {
        try await TestServer.serve { client, server in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            let verifier = try await verifier(from: client)
            try await Application(router: server.server.buildRouter()).test(.router) { router in
                let mounted = Client(http: router, adminKey: client.adminKey)
                let token = try await mounted.token("driver/v-1", session: session).verifiedToken(verifier)
                #expect(token.claims.authorization == AuthorizationClaims(vehicleID: "v-1"))
                try await mounted.token("driver/v-2", session: session).expectRefusal(.forbidden, "PERMISSION_DENIED")
                try await mounted.token("driver/v-1", session: nil).expectRefusal(.unauthorized, "UNAUTHENTICATED")
            }
        }
    }
}
