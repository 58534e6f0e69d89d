import CommandSupport
import Foundation
import TestSupport
import Testing

/// The REST door answers browsers as Google's APIs do: every origin echoed back (never `*`),
/// the API's methods and Google's client headers allowed, preflights kept an hour, and the same
/// headers on answers from the router and from the pipeline's update route.
@Suite("Local Fleet Engine CORS")
struct CrossOriginTests {
    @Test("a preflight from any origin is answered with the API's methods and headers")
    func preflight() async throws {
        let client = try await TestEngine.shared
        for (origin, method) in [
            ("https://rider.example.com", "GET"), ("http://localhost:5173", "PUT"), ("https://ops.example", "PATCH"),
        ] {
            let answer = try await RawHTTP.exchange(
                port: client.port,
                head: [
                    "OPTIONS \(Fixtures.provider)/vehicles/v1 HTTP/1.1", "Host: x", "Origin: \(origin)",
                    "Access-Control-Request-Method: \(method)",
                    "Access-Control-Request-Headers: authorization, content-type",
                ])
            #expect(answer.status == 204, "\(origin): \(answer)")
            #expect(answer.headers["access-control-allow-origin"] == origin)
            #expect(answer.headers["access-control-allow-methods"] == "DELETE, GET, HEAD, PATCH, POST, PUT")
            #expect(answer.headers["access-control-allow-headers"]?.hasPrefix("authorization, content-type") == true)
            #expect(answer.headers["access-control-max-age"] == "3600")
            #expect(answer.headers["vary"] == "Origin, X-Origin, Referer")
        }
    }

    @Test("answers and refusals carry the page's origin, whether the router or the update route answers")
    func answers() async throws {
        let client = try await TestEngine.shared
        let origin = "https://rider.example.com"
        let body = Fixtures.locationUpdate(latitude: 10.0003, longitude: 10)
        for (method, path, token, status) in [
            ("GET", "\(Fixtures.provider)/vehicles/v1", Tokens.server, 200),
            ("GET", "\(Fixtures.provider)/vehicles/v1", "not-a-token", 401),
            ("PUT", "\(Fixtures.provider)/vehicles/v-cors-none?updateMask=lastLocation", Tokens.server, 404),
            ("PUT", "\(Fixtures.provider)/vehicles/%76-cors-none?updateMask=lastLocation", Tokens.server, 404),
        ] {
            let answer = try await RawHTTP.exchange(
                port: client.port,
                head: ["\(method) \(path) HTTP/1.1", "Host: x", "Origin: \(origin)", "Authorization: Bearer \(token)"]
                    + (method == "PUT"
                        ? ["Content-Type: application/json", "Content-Length: \(body.utf8.count)"] : []),
                body: method == "PUT" ? body : "")
            #expect(answer.status == status, "\(method) \(path): \(answer)")
            #expect(answer.headers["access-control-allow-origin"] == origin, "\(method) \(path)")
            #expect(answer.headers["vary"] == "Origin, X-Origin, Referer", "\(method) \(path)")
        }
        // Health and metrics are not the API: no CORS there.
        let health = try await RawHTTP.exchange(
            port: client.port, head: ["GET /healthz HTTP/1.1", "Host: x", "Origin: \(origin)"])
        #expect(health.status == 200 && health.headers["access-control-allow-origin"] == nil)
    }
}
