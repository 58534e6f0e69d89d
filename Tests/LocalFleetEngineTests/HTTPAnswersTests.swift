import CommandSupport
import Foundation
import TestSupport
import Testing

/// The local Fleet Engine's REST door answering requests its routes do not take: wrong
/// methods, unknown paths and unreadable HTTP, each a Google-shaped JSON error.
@Suite("Local Fleet Engine HTTP answers")
struct FleetEngineHTTPAnswersTests {
    @Test(
        "a known path with a wrong method is 405 with the methods it takes",
        arguments: [
            ("PATCH", "\(Fixtures.provider)/vehicles/v1", "DELETE, GET, PUT"),
            ("DELETE", "\(Fixtures.provider)/vehicles", "GET, POST"),
            ("GET", "\(Fixtures.provider)/vehicles:search", "POST"),
            ("GET", "\(Fixtures.provider)/vehicles/v1:updateAttributes", "POST"),
            ("POST", "\(Fixtures.provider)/trips/t1", "DELETE, GET, PUT"),
            ("GET", "\(Fixtures.provider)/billableTrips/t1:report", "POST"),
            ("POST", "/healthz", "GET"),
            ("DELETE", "/openapi.yaml", "GET"),
        ])
    func wrongMethod(method: String, path: String, allowed: String) async throws {
        let client = try await TestEngine.shared
        let response = try await RawHTTP.exchange(
            port: client.port, head: ["\(method) \(path) HTTP/1.1", "Host: x", "Content-Length: 0"])
        #expect(response.status == 405, "\(response)")
        #expect(response.headers["allow"] == allowed)
        #expect(response.googleError?.code == 405)
        #expect(response.googleError?.status == "UNIMPLEMENTED")
    }

    @Test("the provider's address that serve prints lists every REST method and the gRPC door; another provider is 404")
    func providerIndex() async throws {
        let client = try await TestEngine.shared
        for path in [Fixtures.provider, Fixtures.provider + "/"] {
            let index = try await RawHTTP.exchange(port: client.port, head: ["GET \(path) HTTP/1.1", "Host: x"])
            #expect(index.status == 200, "\(path): \(index)")
            struct Index: Decodable { let provider: String; let rest: [String]; let openapi: String }
            let decoded = try JSONDecoder().decode(Index.self, from: Data(index.body.utf8))
            #expect(decoded.provider == TestKeys.project)
            #expect(decoded.rest.contains("PUT \(Fixtures.provider)/vehicles/{vehicle}"), "\(decoded.rest)")
            #expect(decoded.rest.contains("POST \(Fixtures.provider)/trips:search"), "\(decoded.rest)")
            #expect(decoded.rest.contains("PATCH \(Fixtures.provider)/tasks/{task}"), "\(decoded.rest)")
            #expect(
                decoded.rest.count == 25,
                "the 25 methods of VehicleService, TripService and DeliveryService: \(decoded.rest)")
        }
        let other = try await RawHTTP.exchange(
            port: client.port, head: ["GET /v1/providers/someone-else HTTP/1.1", "Host: x"])
        #expect(other.status == 404 && other.googleError?.message.contains(TestKeys.project) == true, "\(other)")
    }

    @Test("the served OpenAPI document is the repository's")
    func openAPIDocument() async throws {
        let client = try await TestEngine.shared
        let served = try await RawHTTP.exchange(port: client.port, head: ["GET /openapi.yaml HTTP/1.1", "Host: x"])
        #expect(served.status == 200)
        #expect(served.headers["content-type"]?.hasPrefix("application/yaml") == true)
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../docs/local-fleet-engine.openapi.yaml")
        #expect(served.body == (try String(contentsOf: repository, encoding: .utf8)))
    }

    @Test("unknown paths and unreadable HTTP are JSON errors, and the engine goes on")
    func unknownAndUnreadable() async throws {
        let client = try await TestEngine.shared
        let unknown = try await RawHTTP.exchange(port: client.port, head: ["GET /v1/providers HTTP/1.1", "Host: x"])
        #expect(unknown.status == 404 && unknown.googleError?.status == "NOT_FOUND", "\(unknown)")
        let garbled = try await RawHTTP.exchange(
            port: client.port,
            request: Array(
                "PUT \(Fixtures.provider)/vehicles/v1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nnot-a-size\r\n"
                    .utf8))
        #expect(garbled.status == 400 || garbled.status == 401, "\(garbled)")
        #expect(garbled.googleError != nil, "\(garbled)")
        let alive = try await client.send(.GET, "\(Fixtures.provider)/vehicles/v1", token: Tokens.server)
        #expect(alive.status == 200)
    }
}
