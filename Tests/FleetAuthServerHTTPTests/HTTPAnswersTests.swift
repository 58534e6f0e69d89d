import CommandSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import FleetAuthServerHTTP

/// What ``FleetHTTPServer`` and ``Router/answerWrongMethodsWith405()`` make of requests a
/// router never sees or does not take: every answer a Google-shaped JSON error.
@Suite("HTTP answers: 405, 431 and the parser's refusals, all JSON")
struct HTTPAnswersTests {
    private struct Note: StrictJSONBody, ResponseEncodable {
        enum CodingKeys: String, CodingKey, CaseIterable { case text }
        let text: String
    }

    /// A server as the token server and the engine are built: the error middleware first,
    /// a few routes, 405s last, over ``FleetHTTPServer/http1``.
    private func application() -> some ApplicationProtocol {
        let router = Router()
        router.add(middleware: APIErrorMiddleware())
        router.get("notes/:id") { _, context in Note(text: try context.parameters.require("id")) }
        router.put("notes/:id") { request, context in
            try await StrictJSON.decode(Note.self, from: request, context: context)
        }
        router.delete("notes/:id") { _, _ in HTTPResponse.Status.noContent }
        router.post("uploads") { request, _ -> HTTPResponse.Status in
            _ = try await request.body.collect(upTo: 16)
            return .ok
        }
        router.answerWrongMethodsWith405()
        return Application(
            router: router, server: FleetHTTPServer.http1,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    /// Runs `body` with the port of a live ``application()``.
    private func withServer(_ body: @Sendable @escaping (Int) async throws -> Void) async throws {
        try await application().test(.live) { client in try await body(try #require(client.port)) }
    }

    private func expectGoogleError(
        _ response: RawHTTP.Response, _ status: Int, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == status, "\(response)", sourceLocation: sourceLocation)
        #expect(response.headers["content-type"]?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
        let error = response.googleError
        #expect(error?.code == status, "\(response)", sourceLocation: sourceLocation)
        #expect(error?.status == name, "\(response)", sourceLocation: sourceLocation)
    }

    @Test("a known path with a method it does not take is 405 with Allow, in JSON")
    func wrongMethod() async throws {
        try await withServer { port in
            for method in ["POST", "PATCH", "HEAD", "OPTIONS", "QUERY"] {
                let response = try await RawHTTP.exchange(
                    port: port, head: ["\(method) /notes/7 HTTP/1.1", "Host: x", "Content-Length: 0"])
                #expect(response.status == 405, "\(method): \(response)")
                #expect(response.headers["allow"] == "DELETE, GET, PUT", "\(method)")
                if method != "HEAD" { expectGoogleError(response, 405, "UNIMPLEMENTED") }
            }
            let upload = try await RawHTTP.exchange(port: port, head: ["GET /uploads HTTP/1.1", "Host: x"])
            expectGoogleError(upload, 405, "UNIMPLEMENTED")
            #expect(upload.headers["allow"] == "POST")
            #expect(upload.googleError?.message.contains("does not take GET") == true)
        }
    }

    @Test("an unknown path stays 404, in JSON; the methods a path takes still answer")
    func unknownPathAndRightMethods() async throws {
        try await withServer { port in
            expectGoogleError(
                try await RawHTTP.exchange(port: port, head: ["PATCH /nowhere HTTP/1.1", "Host: x"]), 404, "NOT_FOUND")
            let note = try await RawHTTP.exchange(port: port, head: ["GET /notes/7 HTTP/1.1", "Host: x"])
            #expect(note.status == 200, "\(note)")
            #expect(note.body == #"{"text":"7"}"#)
        }
    }

    @Test("headers over 64 KiB, in one field or in many, are 431 in JSON, and the server goes on")
    func headersOverTheLimit() async throws {
        try await withServer { port in
            let oneField = try await RawHTTP.exchange(
                port: port,
                head: [
                    "GET /notes/7 HTTP/1.1", "Host: x",
                    "Authorization: Bearer " + String(repeating: "a", count: 100 * 1024),
                ])
            expectGoogleError(oneField, 431, "INVALID_ARGUMENT")
            #expect(oneField.googleError?.message.contains("65536") == true)
            #expect(!oneField.body.contains("aaaa"), "the answer echoes the header")
            let manyFields = (0..<40).map { "X-Filler-\($0): " + String(repeating: "b", count: 2000) }
            expectGoogleError(
                try await RawHTTP.exchange(port: port, head: ["GET /notes/7 HTTP/1.1", "Host: x"] + manyFields), 431,
                "INVALID_ARGUMENT")
            let tooMany = (0..<1100).map { "X-\($0): 1" }
            expectGoogleError(
                try await RawHTTP.exchange(port: port, head: ["GET /notes/7 HTTP/1.1", "Host: x"] + tooMany), 431,
                "INVALID_ARGUMENT")
            // Just under the limit is served.
            let fits = try await RawHTTP.exchange(
                port: port,
                head: ["GET /notes/7 HTTP/1.1", "Host: x", "X-Big: " + String(repeating: "c", count: 60 * 1024)])
            #expect(fits.status == 200, "\(fits)")
        }
    }

    @Test(
        "requests the parser refuses are 400 in JSON, not a bare 400",
        arguments: [
            ("a garbled request line", "GET /notes/7 HTTP/1.1 trailing\r\nHost: x\r\n\r\n"),
            ("an unknown version", "GET /notes/7 HTTP/7.3\r\nHost: x\r\n\r\n"),
            ("a header without a colon", "GET /notes/7 HTTP/1.1\r\nHost x\r\n\r\n"),
            ("a space in the path", "GET /notes/ 7 HTTP/1.1\r\nHost: x\r\n\r\n"),
            (
                "two Content-Lengths that differ",
                "PUT /notes/7 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"
            ),
            (
                "a broken chunk size, read by the route",
                "PUT /notes/7 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"
            ),
        ])
    func parserRefusals(name: String, request: String) async throws {
        try await withServer { port in
            expectGoogleError(
                try await RawHTTP.exchange(port: port, request: Array(request.utf8)), 400, "INVALID_ARGUMENT")
            let after = try await RawHTTP.exchange(port: port, head: ["GET /notes/8 HTTP/1.1", "Host: x"])
            #expect(after.status == 200, "the server goes on after \(name)")
        }
    }

    @Test("Hummingbird's own refusal of a body over a route's limit is JSON")
    func bodyTooLarge() async throws {
        try await withServer { port in
            let response = try await RawHTTP.exchange(
                port: port, head: ["POST /uploads HTTP/1.1", "Host: x", "Content-Length: 64"],
                body: String(repeating: "d", count: 64))
            expectGoogleError(response, 400, "INVALID_ARGUMENT")
            #expect(response.googleError?.message.contains("too large") == true)
        }
    }
}
