import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TestSupport

/// Sends requests to a test engine on loopback.
struct TestClient: Sendable {
    let port: Int
    /// The engine's gRPC port, when it has a gRPC door (see ``GRPCTestClient``).
    var grpcPort: Int?

    /// One client for all tests, without an idle-read timeout: AsyncHTTPClient 1.37's idle-read
    /// state machine traps when a server answers (401, 403) before it has read the whole
    /// request body and the connection is then reused. Up to 64 connections to one engine (the
    /// default is 8): the suites send at once, and on a busy machine a request waiting for one of
    /// 8 connections could wait out the 10 s a connection may take.
    static let http: HTTPClient = {
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(10)))
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// Sends `method path` with `Authorization: <authorization>` when given, `headers`, and `body`.
    func send(
        _ method: HTTPMethod, _ path: String, authorization: String?, headers: [(String, String)] = [],
        body: String? = nil
    ) async throws -> TestResponse {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        request.headers.add(contentsOf: headers)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await Self.http.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 22)
        return TestResponse(
            status: Int(response.status.code), body: String(buffer: bytes),
            retryAfter: response.headers.first(name: "Retry-After"))
    }

    /// Changes the engine's clock (`POST /emulator/v1/clock` with `change`, e.g.
    /// `{"advance":"6s"}`); the engine's console must be on.
    func moveClock(_ change: String) async throws {
        let answer = try await send(.POST, "/emulator/v1/clock", authorization: nil, body: change)
        guard answer.status == 200 else { throw TestFailure("the engine's clock did not move: \(answer)") }
    }

    /// Sends with `Authorization: Bearer <token>`.
    func send(_ method: HTTPMethod, _ path: String, token: String, body: String? = nil) async throws -> TestResponse {
        try await send(method, path, authorization: "Bearer \(token)", body: body)
    }
}

/// A response, with its JSON picked apart for assertions.
struct TestResponse: CustomStringConvertible {
    let status: Int
    let body: String
    /// The `Retry-After` header, when there is one.
    var retryAfter: String?

    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
    }

    /// The Google error body's `status`, e.g. `PERMISSION_DENIED`.
    var errorStatus: String? { (json["error"] as? [String: Any])?["status"] as? String }
    /// The Google error body's `message`.
    var errorMessage: String { (json["error"] as? [String: Any])?["message"] as? String ?? "" }
    /// The Google error body's `code`.
    var errorCode: Int? { (json["error"] as? [String: Any])?["code"] as? Int }

    var description: String { "\(status) \(body)" }

    /// `json` at a dotted path, e.g. `lastLocation.location.latitude`.
    func value(_ path: String) -> Any? {
        var current: Any? = json
        for part in path.split(separator: ".") {
            if let index = Int(part), let array = current as? [Any] {
                current = index < array.count ? array[index] : nil
            } else {
                current = (current as? [String: Any])?[String(part)]
            }
        }
        return current
    }
}
