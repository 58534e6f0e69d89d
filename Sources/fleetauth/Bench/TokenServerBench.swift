import ArgumentParser
import FleetServerSupport
import FleetTokens
import Foundation
import Hummingbird
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle
import TokenServer

/// `fleetauth bench token-server`: driver tokens per second over loopback HTTP (every request
/// checks the session and assignment in the database and signs a fresh token), next to
/// `openssl speed -multi 2 rsa2048` measured in the same run (load from `wrk`) and to a route
/// mounted for the bench that only signs (what any route that signs can reach through the
/// same HTTP server on this machine); then latency at half that rate (from a paced generator
/// that counts queueing against the server).
struct TokenServerBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token-server",
        abstract: "Token server: signed tokens/s over loopback HTTP vs two cores of OpenSSL; p50/p99 at half load."
    )

    @Option(help: "Concurrent keep-alive connections at full load.")
    var connections = 16

    @Option(help: "Seconds per measured run (after a 1 s warm-up).")
    var seconds = 5

    @Option(help: "Rounds of (openssl, token server) runs, interleaved; medians are reported.")
    var rounds = 3

    @Option(help: "Processes for 'openssl speed -multi' (the cores the server may use).")
    var cores = 2

    @Option(help: "Threads of the load generators, wrk and the paced one (they share the machine with the server).")
    var clientThreads = 1

    @Option(help: "A PostgreSQL URL to keep sessions in instead of a temporary SQLite file.")
    var databaseURL: String?

    @Flag(help: "Print JSON.")
    var json = false

    static let ratioTarget = 0.8
    static let p99TargetMilliseconds = 20.0

    struct Report: Encodable {
        let database: String
        let connections: Int
        let secondsPerRun: Int
        let opensslSignPerSecond: [Double]
        let tokensPerSecond: [Double]
        /// The bench's route that signs a driver token and checks nothing.
        let signOnlyPerSecond: [Double]
        /// Tokens per CPU-second of this process and wrk (server and load generator together), times
        /// the cores: what the server would do with the cores to itself. Robust to other load
        /// on the machine, as `openssl speed` (which counts CPU time too) is.
        let tokensPerSecondOnCores: [Double]
        /// One process's `openssl speed` sign/s (per CPU-second of its own), times the cores.
        let opensslSignPerSecondOnCores: [Double]
        let failed: Int
        let ratio: Double
        let signOnlyRatio: Double
        let cpuRatio: Double
        let halfLoadRate: Double
        let halfLoad: LatencySummary
    }

    func run() async throws {
        let folder = try BenchFolder.create()
        defer { BenchFolder.remove(folder) }
        var logger = Logger(label: "bench", factory: DeferredMetadataLogHandler.standardError)
        logger.logLevel = .warning
        let configuration = TokenServerConfiguration(
            dataDirectory: folder, databaseURL: databaseURL, projectID: "bench-project", options: TokenServerOptions(bcryptCost: 4)
        )
        let server = try await TokenServer.open(configuration, logger: logger)
        let vehicle = "bench-vehicle-\(UUID().uuidString.prefix(8))"
        let username = "bench-driver-\(UUID().uuidString.prefix(8))"
        let password = String(SecretToken.generate(prefix: "pw-").prefix(40))
        let serving: RunningService
        do {
            let administration = AccountAdministration(store: server.store, hasher: PasswordHasher(cost: 4))
            _ = try await administration.createAccount(username: username, password: password, roleName: "driver")
            _ = try await administration.assign(Resource(.vehicle, id: vehicle), to: username)
            let signOnly = try Self.signOnlyRoute(keys: server.keys, vehicle: vehicle)
            let serverLogger = logger
            serving = try await RunningService.start(logger: logger) { onStarted in
                let router = server.buildRouter()
                router.get(RouterPath(Self.signOnlyPath), use: signOnly)
                return Application(
                    router: router,
                    configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "fleetauth-token-server"),
                    onServerRunning: { channel in await onStarted(channel.localAddress?.port ?? 0) },
                    logger: serverLogger
                )
            }
        } catch {
            await server.shutdown()
            throw error
        }
        do {
            try await measure(port: serving.port, username: username, password: password, vehicle: vehicle, folder: folder, database: configuration.databaseLocation)
        } catch {
            await serving.stop()
            await server.shutdown()
            throw error
        }
        await serving.stop()
        await server.shutdown()
    }

    /// Logs the driver in, measures full load against OpenSSL and latency at half load, and
    /// prints the report.
    private func measure(port: Int, username: String, password: String, vehicle: String, folder: String, database: DatabaseLocation) async throws {
        let session = try await Self.logIn(port: port, username: username, password: password)
        let path = "/v1/tokens/driver/\(vehicle)"
        let sessionFile = folder + "/session"
        guard FileManager.default.createFile(atPath: sessionFile, contents: Data(session.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CommandFailure("cannot write \(sessionFile)")
        }
        func fullLoad(seconds: Int, path: String = path) async throws -> Wrk.Result {
            try await Wrk.run(url: "http://127.0.0.1:\(port)", connections: connections, threads: clientThreads, seconds: seconds,
                              script: Self.wrkScript, arguments: [sessionFile, path], folder: folder)
        }
        _ = try await fullLoad(seconds: 1)
        var openssl: [Double] = [], opensslOnCores: [Double] = [], tokens: [Double] = [], onCores: [Double] = [], signOnly: [Double] = []
        var failed = 0
        for round in 1...rounds {
            openssl.append(try OpenSSLSpeed.measure(seconds: seconds, processes: cores).signsPerSecond)
            opensslOnCores.append(try OpenSSLSpeed.measure(seconds: seconds).signsPerSecond * Double(cores))
            let cpuStart = Throughput.processCPUSeconds()
            let run = try await fullLoad(seconds: seconds)
            let cpu = Throughput.processCPUSeconds() - cpuStart + run.cpuSeconds
            tokens.append(Double(run.succeeded) / run.seconds)
            onCores.append(Double(run.succeeded) / max(cpu, 1e-9) * Double(cores))
            let signing = try await fullLoad(seconds: seconds, path: "/" + Self.signOnlyPath)
            signOnly.append(Double(signing.succeeded) / signing.seconds)
            failed += run.failed + signing.failed
            if !json {
                FileHandle.standardError.write(Data("round \(round)/\(rounds): openssl \(Int(openssl.last!)) sign/s (\(Int(opensslOnCores.last!)) per \(cores) CPU-seconds), token server \(Int(tokens.last!)) tokens/s (\(Int(onCores.last!)) per \(cores) CPU-seconds), sign-only route \(Int(signOnly.last!))/s\n".utf8))
            }
        }
        let halfRate = Throughput.median(tokens) / 2
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: ["Host": "127.0.0.1", "Authorization": "Bearer \(session)"])
        let group = MultiThreadedEventLoopGroup(numberOfThreads: clientThreads)
        let paced = try await HTTPLoad.run(host: "127.0.0.1", port: port, connections: connections, duration: .seconds(seconds), rate: halfRate, on: group) { _, _ in
            HTTPLoad.Request(head: head, body: nil)
        }
        try? await group.shutdownGracefully()
        failed += paced.failed

        let report = Report(
            database: database.description,
            connections: connections,
            secondsPerRun: seconds,
            opensslSignPerSecond: openssl,
            tokensPerSecond: tokens,
            signOnlyPerSecond: signOnly,
            tokensPerSecondOnCores: onCores,
            opensslSignPerSecondOnCores: opensslOnCores,
            failed: failed,
            ratio: Throughput.median(tokens) / Throughput.median(openssl),
            signOnlyRatio: Throughput.median(signOnly) / Throughput.median(openssl),
            cpuRatio: Throughput.median(onCores) / Throughput.median(opensslOnCores),
            halfLoadRate: halfRate,
            halfLoad: LatencySummary(paced.latencies)
        )
        if json { return try JSONOutput.print(report) }
        print(Self.table(report, cores: cores))
    }

    /// wrk's script: every request the same `GET` (arguments: the file holding the session
    /// token, so that it is not on a command line, and the path).
    private static let wrkScript = #"""
        local request_text
        function init(args)
          local file = assert(io.open(args[1]))
          local session = file:read("*l")
          file:close()
          request_text = wrk.format("GET", args[2], { ["Authorization"] = "Bearer " .. session })
        end
        function request() return request_text end
        """#

    /// The path of the route that only signs (mounted by the bench, not by the token server).
    private static let signOnlyPath = "bench/sign-only"

    /// A handler that signs a driver token for `vehicle` with the token route's key and claims,
    /// and does nothing else: no session, no assignment, no database, the bare token as the
    /// answer instead of the JSON around it.
    private static func signOnlyRoute(keys: SigningKeys, vehicle: String) throws -> @Sendable (Request, TokenServerContext) async throws -> Response {
        guard let key = keys.key(for: .driverSDKUser) else { throw CommandFailure("the token server has no driver signing key") }
        let minter = try TokenMinter(key: key, defaultLifetime: .seconds(3600))
        return { _, _ in
            let minted = try minter.mint(.driver(vehicleID: vehicle))
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: minted.token)))
        }
    }

    /// Logs in over HTTP like an app does, returning the session token.
    static func logIn(port: Int, username: String, password: String) async throws -> String {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/sessions")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(["username": username, "password": password])
        let (data, _) = try await URLSession.shared.data(for: request)
        guard let body = try JSONSerialization.jsonObject(with: data) as? [String: Any], let session = body["sessionToken"] as? String else {
            throw CommandFailure("login failed: \(String(decoding: data, as: UTF8.self))")
        }
        return session
    }

    private static func table(_ report: Report, cores: Int) -> String {
        let openssl = Throughput.median(report.opensslSignPerSecond), tokens = Throughput.median(report.tokensPerSecond)
        let ratioOK = report.ratio >= ratioTarget, p99OK = report.halfLoad.p99Milliseconds < p99TargetMilliseconds
        return [
            "token server (\(report.database)), \(report.connections) connections, \(report.secondsPerRun) s runs, medians of \(report.opensslSignPerSecond.count)",
            String(format: "openssl speed -multi %d rsa2048   %8.0f sign/s", cores, openssl),
            String(format: "GET /v1/tokens/driver/{id}        %8.0f tokens/s   %.2fx   target >= %.2fx  %@", tokens, report.ratio, ratioTarget, ratioOK ? "ok" : "MISSED"),
            String(format: "GET a route that only signs       %8.0f tokens/s   %.2fx   (no session, no database: the most a route that signs reaches here)",
                   Throughput.median(report.signOnlyPerSecond), report.signOnlyRatio),
            String(format: "per %d CPU-seconds: openssl        %8.0f signs", cores, Throughput.median(report.opensslSignPerSecondOnCores)),
            String(format: "  token server and wrk together   %8.0f tokens     %.2fx   (steadier than wall-clock on a shared machine, still inflated by contention)",
                   Throughput.median(report.tokensPerSecondOnCores), report.cpuRatio),
            String(format: "at half load (%.0f/s)             p50 %.2f ms   p99 %.2f ms   max %.2f ms   target p99 < %.0f ms  %@",
                   report.halfLoadRate, report.halfLoad.p50Milliseconds, report.halfLoad.p99Milliseconds, report.halfLoad.maxMilliseconds,
                   p99TargetMilliseconds, p99OK ? "ok" : "MISSED"),
            "failed requests: \(report.failed)",
        ].joined(separator: "\n")
    }
}
