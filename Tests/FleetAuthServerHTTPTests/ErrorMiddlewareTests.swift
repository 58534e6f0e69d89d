import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import FleetAuthServerHTTP

private struct Echo: StrictJSONBody, ResponseEncodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case text }
    let text: String
}

private struct LeakyError: Error, CustomStringConvertible {
    var description: String { "connection string postgres://u:s3cret@db failed" }
}

@Suite("Error middleware on a live server")
struct ErrorMiddlewareTests {
    private func application() -> some ApplicationProtocol {
        let router = Router()
        router.add(middleware: APIErrorMiddleware())
        router.post("/echo") { request, context in
            try await StrictJSON.decode(Echo.self, from: request, context: context)
        }
        router.get("/leak") { _, _ -> String in throw LeakyError() }
        router.get("/busy") { _, _ -> String in
            throw APIError.resourceExhausted("too many tries", retryAfter: .seconds(7))
        }
        router.addMetricsRoute(PrometheusMetrics())
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    private func errorBody(_ response: TestResponse) throws -> (code: Int, status: String, message: String) {
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: [String: Any]])
        let error = try #require(object["error"])
        return (
            try #require(error["code"] as? Int), try #require(error["status"] as? String),
            try #require(error["message"] as? String)
        )
    }

    @Test("a strict body round-trips; an unknown field is a 400 naming it")
    func strictBodies() async throws {
        try await application().test(.live) { client in
            try await client.execute(uri: "/echo", method: .post, body: ByteBuffer(string: #"{"text":"hi"}"#)) {
                response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/echo", method: .post, body: ByteBuffer(string: #"{"text":"hi","extra":1}"#))
            { response in
                #expect(response.status == .badRequest)
                let body = try errorBody(response)
                #expect(body.status == "INVALID_ARGUMENT")
                #expect(body.message.contains("\"extra\""))
            }
            let big = ByteBuffer(string: #"{"text":""# + String(repeating: "x", count: 70_000) + #""}"#)
            try await client.execute(uri: "/echo", method: .post, body: big) { response in
                #expect(response.status == .badRequest)
                let body = try errorBody(response)
                #expect(body.message.contains("larger than"))
            }
        }
    }

    @Test("an unexpected error is a generic 500 that leaks nothing")
    func genericInternal() async throws {
        try await application().test(.live) { client in
            try await client.execute(uri: "/leak", method: .get) { response in
                #expect(response.status == .internalServerError)
                let body = try errorBody(response)
                #expect(body.status == "INTERNAL")
                #expect(body.message == APIError.internalMessage)
                #expect(!String(buffer: response.body).contains("s3cret"))
            }
        }
    }

    @Test("unknown routes are JSON 404s; 429 carries Retry-After")
    func notFoundAndThrottle() async throws {
        try await application().test(.live) { client in
            try await client.execute(uri: "/nowhere", method: .get) { response in
                #expect(response.status == .notFound)
                let body = try errorBody(response)
                #expect(body.status == "NOT_FOUND")
            }
            try await client.execute(uri: "/busy", method: .get) { response in
                #expect(response.status == .tooManyRequests)
                #expect(response.headers[.retryAfter] == "7")
                let body = try errorBody(response)
                #expect(body.status == "RESOURCE_EXHAUSTED")
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
            }
        }
    }
}
