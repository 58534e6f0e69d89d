import AsyncHTTPClient
import CommandSupport
import FleetAuthLocking
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The token server as an SRE runs it: configured by the environment, probed by a platform,
/// stopped by SIGTERM under load, logging JSON for Cloud Logging, letting slow clients go.
/// Each test runs the built `fleetauth` as a child process.
@Suite("the token server in production", .serialized)
struct ProductionTests {
    /// A token server on a fresh data directory, with one driver account `ann` on vehicle `v-1`.
    private struct Server {
        let process: ChildProcess
        let port: Int
        let folder: String
        let sessionToken: String
        let adminKey: String

        /// `GET path` with the session as bearer (or none), on a connection of its own.
        func get(_ path: String, headers: [String] = [], authorized: Bool = true) async throws -> RawHTTP.Response {
            let bearer = authorized ? ["Authorization: Bearer \(sessionToken)"] : []
            return try await RawHTTP.exchange(
                port: port, head: ["GET \(path) HTTP/1.1", "Host: 127.0.0.1"] + bearer + headers)
        }
    }

    /// Starts `fleetauth token-server` with `arguments` and `environment`, makes `ann`, logs in.
    private func startServer(
        _ arguments: [String] = ["--port", "0"], environment: [String: String] = [:],
        dataDirectoryFromEnvironment: Bool = false
    ) async throws -> Server {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fleetauth-production-\(UUID().uuidString)"
        ).path
        var environment = environment
        var arguments = ["token-server", "--bcrypt-cost", "4"] + arguments
        if dataDirectoryFromEnvironment {
            environment["FLEETAUTH_DATA_DIR"] = folder
        } else {
            arguments += ["--data-dir", folder]
        }
        let process = try ChildProcess([try ChildProcess.fleetauth] + arguments, environment: environment)
        let announced = try await process.output(containing: "token server listening on")
        let port = try #require(
            announced.ranges(of: /listening on http:\/\/[0-9.]+:(\d+)/).first.flatMap {
                Int(announced[$0].split(separator: ":").last ?? "")
            })
        let created = try await ChildProcess.runFleetauth(
            ["accounts", "create", "ann", "--role", "driver", "--bcrypt-cost", "4", "--data-dir", folder],
            input: "correct horse\n")
        #expect(created.succeeded, "\(created.output)")
        #expect(
            try await ChildProcess.runFleetauth(["assign", "vehicle", "v-1", "ann", "--data-dir", folder]).succeeded)
        let credentials = #"{"username":"ann","password":"correct horse"}"#
        let login = try await RawHTTP.exchange(
            port: port,
            head: [
                "POST /v1/sessions HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json",
                "Content-Length: \(credentials.utf8.count)",
            ],
            body: credentials)
        let session = try #require(login.body.firstMatch(of: /"sessionToken" *: *"([^"]+)"/)?.1)
        let adminKey = try String(contentsOfFile: folder + "/admin-key", encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        return Server(process: process, port: port, folder: folder, sessionToken: String(session), adminKey: adminKey)
    }

    @Test("configured only by PORT and FLEETAUTH_* variables, it listens on 0.0.0.0 and serves tokens")
    func configuredByTheEnvironment() async throws {
        let port = try FreePort.pick()
        let server = try await startServer(
            [],
            environment: [
                "PORT": "\(port)", "FLEETAUTH_TOKEN_LIFETIME": "600", "FLEETAUTH_LOG_LEVEL": "warning",
                "FLEETAUTH_PROJECT": "env-project",
            ], dataDirectoryFromEnvironment: true)
        defer { server.process.kill(); try? FileManager.default.removeItem(atPath: server.folder) }
        #expect(server.port == port)
        #expect(try await server.process.output(containing: "listening on").contains("http://0.0.0.0:\(port)"))
        let token = try await server.get("/v1/tokens/driver/v-1")
        #expect(token.status == 200, "\(token.status)")
        #expect(Self.lifetime(of: token) == 600, "FLEETAUTH_TOKEN_LIFETIME is the token's lifetime")
        let jwks = try await server.get("/.well-known/jwks.json", authorized: false)
        #expect(jwks.status == 200)
        let keys = try String(contentsOfFile: server.folder + "/keys/driver.json", encoding: .utf8)
        #expect(keys.contains("env-project"), "FLEETAUTH_PROJECT names the keys' project")
    }

    @Test("a flag wins over its variable, and a bad value is refused naming the variable")
    func flagsWinAndBadValuesAreNamed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleetauth-env-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bad = try await ChildProcess.run(
            [try ChildProcess.fleetauth, "token-server", "--data-dir", folder],
            environment: ["FLEETAUTH_TOKEN_LIFETIME": "7200"])
        #expect(
            !bad.succeeded && bad.output.contains("FLEETAUTH_TOKEN_LIFETIME must be 1 to 3600 seconds"), "\(bad.output)"
        )
        let notANumber = try await ChildProcess.run(
            [try ChildProcess.fleetauth, "token-server", "--data-dir", folder],
            environment: ["FLEETAUTH_SHUTDOWN_DELAY": "soon"])
        let firstLine = notANumber.output.split(separator: "\n").first ?? ""
        #expect(!notANumber.succeeded && firstLine.contains("FLEETAUTH_SHUTDOWN_DELAY"), "\(notANumber.output)")
        #expect(
            !firstLine.contains("--shutdown-delay"),
            "the message names the variable, not the flag: \(notANumber.output)")
        let badFlag = try await ChildProcess.run(
            [try ChildProcess.fleetauth, "token-server", "--data-dir", folder],
            environment: ["FLEETAUTH_ACCESS_LOG": "maybe"])
        #expect(
            !badFlag.succeeded && badFlag.output.contains("FLEETAUTH_ACCESS_LOG takes true or false"),
            "\(badFlag.output)")

        let server = try await startServer(
            ["--port", "0", "--token-lifetime", "60"], environment: ["FLEETAUTH_TOKEN_LIFETIME": "7200"])
        defer { server.process.kill(); try? FileManager.default.removeItem(atPath: server.folder) }
        let token = try await server.get("/v1/tokens/driver/v-1")
        #expect(token.status == 200 && Self.lifetime(of: token) == 60, "the flag's 60 s, not the variable's bad value")
    }

    @Test("--help names the variable of every option; --version names the release and its commit")
    func helpAndVersion() async throws {
        for command in [["token-server"], ["serve"], ["fleet-engine"], ["fleet-engine", "run"]] {
            let help = try await ChildProcess.runFleetauth(command + ["--help"])
            #expect(help.succeeded)
            for variable in [
                "FLEETAUTH_LOG_FORMAT", "FLEETAUTH_SHUTDOWN_DELAY", "FLEETAUTH_HOST", "FLEETAUTH_HEADER_TIMEOUT",
            ] {
                #expect(help.output.contains(variable), "\(command) --help names \(variable)")
            }
        }
        let tokenServerHelp = try await ChildProcess.runFleetauth(["token-server", "--help"]).output
        #expect(
            tokenServerHelp.contains("FLEETAUTH_TOKEN_LIFETIME") && tokenServerHelp.contains("FLEETAUTH_OIDC_ISSUER"))
        #expect(tokenServerHelp.contains("PORT") && tokenServerHelp.contains("0.0.0.0"))
        let mintHelp = try await ChildProcess.runFleetauth(["mint", "--help"]).output
        #expect(!mintHelp.contains("FLEETAUTH_"), "only the server commands take the environment")

        let version = try await ChildProcess.runFleetauth(["--version"])
        let expected = try String(contentsOfFile: Self.packageRoot + "/VERSION", encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(version.succeeded && version.output.hasPrefix(expected + " ("), "\(version.output)")
    }

    @Test(
        "/livez and /readyz answer apart; on SIGTERM /readyz turns 503 at once and no request sent before the signal is lost"
    )
    func drainOnSIGTERM() async throws {
        // A delay of 3 s, of which the test holds the server to its first second: a server the
        // suites beside it starve of CPU still reads within the other two what was sent then.
        let server = try await startServer([
            "--port", "0", "--shutdown-delay", "3", "--shutdown-timeout", "8", "--log-level", "warning",
            "--token-requests-per-minute", "0",
        ])
        defer { server.process.kill(); try? FileManager.default.removeItem(atPath: server.folder) }
        #expect(try await server.get("/livez", authorized: false).status == 200)
        let ready = try await server.get("/readyz", authorized: false)
        #expect(ready.status == 200 && ready.body.contains(#""status":"ready""#), "\(ready)")

        // 16 keep-alive clients ask for tokens through the signal, each pausing 25 ms between
        // requests: steady traffic on every connection that leaves the machine's cores to the
        // suites running beside this one (a loop without pause starved their timeouts).
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: .init(connectionPool: .init(idleTimeout: .seconds(60))))
        let outcomes = Locked<[(start: ContinuousClock.Instant, ok: Bool, problem: String)]>([])
        let stop = Locked(false)
        let url = "http://127.0.0.1:\(server.port)/v1/tokens/driver/v-1"
        let signalled = Locked<ContinuousClock.Instant?>(nil)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    while !stop.withLock({ $0 }) {
                        var request = HTTPClientRequest(url: url)
                        request.headers.add(name: "Authorization", value: "Bearer \(server.sessionToken)")
                        let start = ContinuousClock.now
                        do {
                            let response = try await client.execute(request, timeout: .seconds(10))
                            _ = try await response.body.collect(upTo: 64 * 1024)
                            outcomes.withLock {
                                $0.append((start, response.status.code == 200, "\(response.status.code)"))
                            }
                            try? await Task.sleep(for: .milliseconds(25))
                        } catch {
                            outcomes.withLock { $0.append((start, false, "\(error)")) }
                            try? await Task.sleep(for: .milliseconds(20))
                        }
                    }
                }
            }
            group.addTask {
                // The signal comes once the load has run a while, however slow the machine.
                let loadStarted = ContinuousClock.now
                while outcomes.withLock({ $0.count }) < 40, ContinuousClock.now - loadStarted < .seconds(30) {
                    try await Task.sleep(for: .milliseconds(20))
                }
                signalled.withLock { $0 = .now }
                server.process.terminate()
                try await Task.sleep(for: .milliseconds(200))
                let draining = try await server.get("/readyz", authorized: false)
                #expect(
                    draining.status == 503 && draining.body.contains("draining"), "readiness fails first: \(draining)")
                #expect(draining.headers["retry-after"] != nil)
                #expect(try await server.get("/livez", authorized: false).status == 200, "still live while draining")
                let exit = try await server.process.exit(within: .seconds(10))
                #expect(exit.succeeded, "exits 0 after the drain: \(exit.output.suffix(500))")
                if let signalled = signalled.withLock({ $0 }) {
                    #expect(ContinuousClock.now - signalled < .seconds(9), "exits within the shutdown timeout")
                }
                stop.withLock { $0 = true }
            }
            try await group.waitForAll()
        }
        try await client.shutdown()
        let signal = try #require(signalled.withLock { $0 })
        let all = outcomes.withLock { $0 }
        let beforeSignal = all.filter { $0.start < signal }
        let duringDelay = all.filter { $0.start >= signal && $0.start < signal + .seconds(1) }
        #expect(beforeSignal.count >= 40, "the load ran: \(beforeSignal.count) requests before the signal")
        let lostBeforeSignal = beforeSignal.filter { !$0.ok }.map { $0.problem }
        let lostDuringDelay = duringDelay.filter { !$0.ok }.map { $0.problem }
        #expect(lostBeforeSignal.isEmpty, "every request sent before SIGTERM answered: \(lostBeforeSignal.prefix(5))")
        #expect(lostDuringDelay.isEmpty, "served on through the delay: \(lostDuringDelay.prefix(5))")
    }

    @Test(
        "--log-format json: one JSON object a line, severity, the request's trace, httpRequest, and no secret at trace level"
    )
    func jsonLogs() async throws {
        let server = try await startServer([
            "--port", "0", "--log-format", "json", "--access-log", "--log-level", "trace", "--project", "my-fleet",
        ])
        defer { server.process.kill(); try? FileManager.default.removeItem(atPath: server.folder) }
        let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
        let token = try await server.get(
            "/v1/tokens/driver/v-1",
            headers: ["traceparent: 00-\(traceID)-00f067aa0ba902b7-01", "User-Agent: fleet-test"])
        #expect(token.status == 200)
        let signed = try #require(token.body.firstMatch(of: /"token" *: *"([^"]+)"/)?.1)
        let refused = try await server.get(
            "/v1/tokens/driver/v-2", headers: ["X-Cloud-Trace-Context: 105445aa7843bc8bf206b12000100000/1;o=1"])
        #expect(refused.status == 403)
        _ = try await server.get(
            "/v1/admin/accounts", headers: ["Authorization: Bearer \(server.adminKey)"], authorized: false)
        server.process.terminate()
        let exit = try await server.process.exit(within: .seconds(20))

        let lines = exit.output.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(lines.count >= 3, "\(exit.output.suffix(1000))")
        let objects = try lines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\($0)")
        }
        let severities: Set<String> = ["DEBUG", "INFO", "NOTICE", "WARNING", "ERROR", "CRITICAL"]
        #expect(
            objects.allSatisfy {
                ($0["severity"] as? String).map(severities.contains) == true && $0["message"] is String
                    && $0["time"] is String
            })
        let access = try #require(
            objects.first { ($0["httpRequest"] as? [String: Any])?["requestUrl"] as? String == "/v1/tokens/driver/v-1" }
        )
        #expect(access["logging.googleapis.com/trace"] as? String == "projects/my-fleet/traces/\(traceID)")
        #expect(access["logging.googleapis.com/spanId"] as? String == "00f067aa0ba902b7")
        let httpRequest = try #require(access["httpRequest"] as? [String: Any])
        #expect(httpRequest["requestMethod"] as? String == "GET" && httpRequest["status"] as? String == "200")
        #expect(
            httpRequest["remoteIp"] as? String == "127.0.0.1" && httpRequest["userAgent"] as? String == "fleet-test")
        #expect((httpRequest["latency"] as? String)?.hasSuffix("s") == true)
        let refusedLine = objects.first {
            ($0["httpRequest"] as? [String: Any])?["requestUrl"] as? String == "/v1/tokens/driver/v-2"
        }
        #expect(
            refusedLine?["logging.googleapis.com/trace"] as? String
                == "projects/my-fleet/traces/105445aa7843bc8bf206b12000100000")
        #expect(refusedLine?["logging.googleapis.com/spanId"] as? String == "0000000000000001")
        for secret in [server.sessionToken, String(signed), server.adminKey, "correct horse", "PRIVATE KEY"] {
            #expect(!exit.output.contains(secret), "no secret in the log")
        }
    }

    @Test(
        "1,000 half-sent request heads: others are answered, the heads' connections close after --header-timeout, an idle one after --idle-timeout"
    )
    func slowClientsAreLetGo() async throws {
        let server = try await startServer([
            "--port", "0", "--header-timeout", "2", "--idle-timeout", "3", "--log-level", "warning",
        ])
        defer { server.process.kill(); try? FileManager.default.removeItem(atPath: server.folder) }
        let sockets = try (0..<1000).map { _ in
            try RawClient(port: server.port, sending: "GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow:")
        }
        defer { sockets.forEach { $0.close() } }
        // A keep-alive client that got its answer and then says nothing more.
        let idle = try RawClient(port: server.port, sending: "GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        defer { idle.close() }
        // How fast is measured on a quiet machine (docs/performance.md), not here: a busy CI
        // machine would make a timed test fail for nothing.
        let token = try await server.get("/v1/tokens/driver/v-1")
        #expect(token.status == 200, "answered beside 1,000 slow clients: \(token)")
        try await Task.sleep(for: .seconds(4))
        let closed = sockets.filter { $0.isClosedByServer() }.count
        #expect(
            closed == sockets.count, "\(closed) of \(sockets.count) slow connections closed after the header timeout")
        #expect(idle.isClosedByServer(), "an idle keep-alive connection closes after --idle-timeout")
        #expect(try await server.get("/v1/tokens/driver/v-1").status == 200)
    }

    /// A token answer's lifetime, `expiresAt` less `issuedAt`: its `expiresInSeconds` counts from
    /// the answer, which may come a second later than the signing on a busy machine.
    private static func lifetime(of answer: RawHTTP.Response) -> Int64? {
        guard let issued = answer.body.firstMatch(of: /"issuedAt" *: *(\d+)/).flatMap({ Int64($0.1) }),
            let expires = answer.body.firstMatch(of: /"expiresAt" *: *(\d+)/).flatMap({ Int64($0.1) })
        else { return nil }
        return expires - issued
    }

    /// The package's folder (the tests run from it, or from its build folder).
    private static var packageRoot: String {
        var folder = URL(fileURLWithPath: #filePath)
        while folder.path != "/",
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path)
        {
            folder.deleteLastPathComponent()
        }
        return folder.path
    }
}

/// A free TCP port on loopback, found by binding port 0 and letting it go.
enum FreePort {
    static func pick() throws -> Int {
        let descriptor = try LoopbackSocket.open()
        defer { close(descriptor) }
        var address = LoopbackSocket.address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw TestFailure("binding a loopback port failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A client on a socket of its own that sent `text` (half a request head, or a whole request)
/// and then nothing.
private final class RawClient: Sendable {
    private let descriptor: Int32

    init(port: Int, sending text: String) throws {
        descriptor = try LoopbackSocket.open()
        var address = LoopbackSocket.address(port: port)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw TestFailure("connect failed: errno \(errno)") }
        let bytes = Array(text.utf8)
        guard send(descriptor, bytes, bytes.count, 0) == bytes.count else {
            throw TestFailure("send failed: errno \(errno)")
        }
    }

    /// Whether the server has closed the connection: reading what it sent, without waiting,
    /// finds the connection's end.
    func isClosedByServer() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let read = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if read > 0 { continue }
            return read == 0 || errno == ECONNRESET
        }
    }

    func close() {
        _ = Glibc.close(descriptor)
    }
}
