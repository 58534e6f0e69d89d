import FleetAuthServerHTTP
import FleetAuthServerStorage
import FleetTokens
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import TestSupport
import Testing

@testable import TokenServer

/// A token server on a data directory, serving on a free loopback port.
struct TestServer: Sendable {
    let server: TokenServer
    let configuration: TokenServerConfiguration

    /// The admin key the server wrote on first start.
    var adminKey: String {
        get throws {
            try String(contentsOfFile: configuration.adminKeyPath, encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
    }

    /// Test options: cheap bcrypt, a movable clock.
    static func options(clock: TestClock = TestClock(), throttle: LoginThrottle.Policy = .init()) -> TokenServerOptions
    {
        TokenServerOptions(tokenLifetime: .seconds(1800), bcryptCost: 4, loginThrottle: throttle, now: clock.function)
    }

    /// Opens a server on `dataDirectory` (the shared test keys installed) and `database`.
    static func open(
        dataDirectory: String,
        database: DatabaseLocation,
        options: TokenServerOptions = TestServer.options(),
        logger: Logger = Logger(label: "test")
    ) async throws -> TestServer {
        if !FileManager.default.fileExists(atPath: dataDirectory + "/keys") {
            try TestKeys.install(in: dataDirectory + "/keys")
        }
        var configuration = TokenServerConfiguration(
            dataDirectory: dataDirectory, projectID: TestKeys.project, options: options)
        if case .postgres(let url) = database { configuration.databaseURL = url }
        let server = try await TokenServer.open(configuration, logger: logger)
        return TestServer(server: server, configuration: configuration)
    }

    /// Serves on a free loopback port while `body` runs, then shuts the server down. Requests
    /// are handled on the event loops, as `TokenServer.run` serves them.
    func serve<Result: Sendable>(_ body: @Sendable @escaping (Client) async throws -> Result) async throws -> Result {
        do {
            let adminKey = try self.adminKey
            let application = server.application(port: 0)
            let result = try await withTaskExecutorPreference(EventLoopTaskExecutor()) {
                try await application.test(.live) { client in
                    try await body(Client(http: client, adminKey: adminKey))
                }
            }
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    /// Opens a server on a fresh data directory and database of `backend`, and serves it.
    static func serve<Result: Sendable>(
        _ backend: StoreBackend = .sqlite,
        options: TokenServerOptions = TestServer.options(),
        _ body: @Sendable @escaping (Client, TestServer) async throws -> Result
    ) async throws -> Result {
        try await TestDatabase.with(backend) { database in
            let server = try await open(
                dataDirectory: database.folder + "/data", database: database.location, options: options)
            return try await server.serve { client in try await body(client, server) }
        }
    }
}

/// The token server's API as a test calls it.
struct Client: Sendable {
    let http: any TestClientProtocol
    let adminKey: String

    func send(_ method: HTTPRequest.Method, _ uri: String, bearer: String? = nil, json: String? = nil) async throws
        -> TestResponse
    {
        var headers: HTTPFields = [:]
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        if json != nil { headers[.contentType] = "application/json" }
        return try await http.execute(
            uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    func admin(_ method: HTTPRequest.Method, _ uri: String, json: String? = nil) async throws -> TestResponse {
        try await send(method, uri, bearer: adminKey, json: json)
    }

    /// Creates an account through the admin API, expecting 201.
    func createAccount(_ username: String, role: String, password: String = "correct horse") async throws {
        let response = try await admin(
            .post, "/v1/admin/accounts",
            json: #"{"username":"\#(username)","password":"\#(password)","role":"\#(role)"}"#)
        try #require(response.status == .created, "creating \(username): \(String(buffer: response.body))")
    }

    /// Assigns through the admin API (`vehicles/V/driver`, …), expecting 200.
    func assign(_ path: String, to username: String) async throws {
        let response = try await admin(.put, "/v1/admin/\(path)", json: #"{"username":"\#(username)"}"#)
        try #require(response.status == .ok, "assigning \(path): \(String(buffer: response.body))")
    }

    /// Creates an account, assigns it `resources` (`vehicles/V/driver`, …) and logs it in;
    /// returns the session token.
    func enroll(_ username: String, role: String, assigned resources: [String]) async throws -> String {
        try await createAccount(username, role: role)
        for resource in resources { try await assign(resource, to: username) }
        return try await logIn(username)
    }

    /// Logs in, expecting 201; returns the session token.
    func logIn(_ username: String, password: String = "correct horse") async throws -> String {
        let response = try await send(
            .post, "/v1/sessions", json: #"{"username":"\#(username)","password":"\#(password)"}"#)
        try #require(response.status == .created, "logging in \(username): \(String(buffer: response.body))")
        return try #require(try response.json()["sessionToken"] as? String)
    }

    func token(_ path: String, session: String?) async throws -> TestResponse {
        try await send(.get, "/v1/tokens/\(path)", bearer: session)
    }
}

extension TestResponse {
    /// The body as a JSON object.
    func json() throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any],
            "not a JSON object: \(String(buffer: body))")
    }

    /// The `error` object of a refusal: code, status, message.
    func error() throws -> (code: Int, status: String, message: String) {
        let error = try #require(try json()["error"] as? [String: Any])
        return (
            try #require(error["code"] as? Int), try #require(error["status"] as? String),
            try #require(error["message"] as? String)
        )
    }

    /// Expects a refusal with `status` and the Google `name`, and returns its message.
    @discardableResult
    func expectRefusal(_ status: HTTPResponse.Status, _ name: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> String
    {
        #expect(self.status == status, "body: \(String(buffer: body))", sourceLocation: sourceLocation)
        let error = try error()
        #expect(error.code == Int(status.code), sourceLocation: sourceLocation)
        #expect(error.status == name, sourceLocation: sourceLocation)
        return error.message
    }
}
