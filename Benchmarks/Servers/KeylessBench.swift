import ArgumentParser
import CommandSupport
import FleetAuthServerHTTP
import FleetDemo
import Foundation
import GoogleStandIn
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import TokenServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `fleetauth-bench keyless`: the token server signing driver tokens through IAM (the Google
/// stand-in, holding each signature back as IAM's round trip would), a fleet of vehicles each
/// asking for its token on a timetable, with token reuse on and then off: tokens/s, latency
/// from each request's due time, and IAM calls per token. Then `fleetauth serve`'s start-up, to
/// its banner, on a fresh data directory, with `--keyless` (the stand-in's keys fetched for every
/// account) and without.
struct KeylessBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keyless",
        abstract:
            "Token server signing through IAM (stand-in with a delay): tokens/s, p50/p99, IAM calls per token, reuse on and off; serve's start-up with and without --keyless."
    )

    @Option(help: "Vehicles, each asking for its driver token once per --interval.")
    var vehicles = 1000

    @Option(help: "Seconds between two requests of one vehicle.")
    var interval = 5.0

    @Option(help: "Milliseconds the stand-in holds each signature back (IAM's round trip).")
    var signDelay = 50

    @Option(help: "Lifetime of the tokens in seconds (reuse hands a token out while more than half of it is left).")
    var tokenLifetime = 60

    @Option(help: "Seconds per run.")
    var seconds = 30

    @Option(help: "Keep-alive connections the requests are spread over.")
    var connections = 100

    @Option(
        help: "How many times `fleetauth serve` is started with --keyless, and as many without, to time its start-up.")
    var startups = 5

    @Flag(help: "Print JSON.")
    var json = false

    struct Run: Encodable {
        let reuse: Bool
        let tokensPerSecond: Double
        let failed: Int
        let iamCallsPerToken: Double
        let metadataTokenFetches: Int
        let latency: LatencySummary
    }

    /// Median seconds from starting `fleetauth serve` to its banner's last line.
    struct StartUp: Encodable {
        let plainSeconds: Double
        let keylessSeconds: Double
    }

    /// What `--json` prints: both runs, then the start-up.
    struct Report: Encodable {
        let runs: [Run]
        let startUp: StartUp
    }

    func validate() throws {
        guard vehicles >= 1, interval > 0, signDelay >= 0, seconds >= 1, connections >= 1, startups >= 1 else {
            throw ValidationError("every number must be positive")
        }
        guard (2...3600).contains(tokenLifetime) else {
            throw ValidationError("--token-lifetime must be 2 to 3600 seconds")
        }
    }

    func run() async throws {
        var runs: [Run] = []
        for reuse in [true, false] { runs.append(try await measure(reuse: reuse)) }
        var plain: [Double] = [], keyless: [Double] = []
        for _ in 0..<startups {
            plain.append(try await Self.startUp([]))
            keyless.append(try await Self.startUp(["--keyless"]))
        }
        let startUp = StartUp(plainSeconds: Throughput.median(plain), keylessSeconds: Throughput.median(keyless))
        if json { return try JSONOutput.print(Report(runs: runs, startUp: startUp)) }
        print(
            "token server signing through IAM (stand-in, \(signDelay) ms per signature), \(vehicles) vehicles each asking every \(interval) s, "
                + "\(tokenLifetime) s tokens, \(seconds) s runs")
        for run in runs {
            print(
                String(
                    format:
                        "reuse %@  %7.1f tokens/s  p50 %7.1f ms  p99 %7.1f ms  %.3f IAM calls per token  %d metadata tokens  %d failed",
                    run.reuse ? "on " : "off", run.tokensPerSecond, run.latency.p50Milliseconds,
                    run.latency.p99Milliseconds,
                    run.iamCallsPerToken, run.metadataTokenFetches, run.failed))
        }
        print(
            String(
                format:
                    "fleetauth serve start-up to its banner, median of %d, fresh data directory: %.2f s; with --keyless %.2f s (%.2fx)",
                startups, startUp.plainSeconds, startUp.keylessSeconds, startUp.keylessSeconds / startUp.plainSeconds))
    }

    /// Seconds from starting the `fleetauth` beside this bench as `serve` (plus `extra`), on free
    /// ports and a fresh data directory, to the last line of its banner.
    private static func startUp(_ extra: [String]) async throws -> Double {
        let folder = try BenchFolder.create()
        defer { BenchFolder.remove(folder) }
        let started = ContinuousClock.now
        let serve = try ChildProcess(
            [
                BenchExecutables.fleetAuth, "serve", "--data-dir", folder,
                "--token-server-port", "0", "--fleet-engine-port", "0", "--grpc-port", "0",
            ] + extra, standardError: .discarded)
        defer { serve.stop() }
        _ = try await serve.output(containing: "3. Send")
        return (ContinuousClock.now - started) / .seconds(1)
    }

    /// One run on a new stand-in and token server.
    private func measure(reuse: Bool) async throws -> Run {
        let folder = try BenchFolder.create()
        defer { BenchFolder.remove(folder) }
        var logger = Logger(label: "bench", factory: DeferredMetadataLogHandler.standardError)
        logger.logLevel = .warning
        let standIn = GoogleStandIn(
            serviceAccounts: ["fe-driver@bench-project.iam.gserviceaccount.com"],
            signJwtDelay: .milliseconds(signDelay), logger: logger)
        let google = try await RunningService.start(logger: logger) { standIn.application(port: 0, onRunning: $0) }
        do {
            let keyless = KeylessSigning(
                signers: [.driverSDKUser: "fe-driver@bench-project.iam.gserviceaccount.com"],
                iamCredentialsURL: URL(string: "http://127.0.0.1:\(google.port)")!,
                metadataHost: "127.0.0.1:\(google.port)", reuseTokens: reuse)
            let options = TokenServerOptions(
                tokenLifetime: .seconds(tokenLifetime), bcryptCost: 4, tokenRequestsPerMinute: 0, keyless: keyless)
            let server = try await TokenServer.open(
                TokenServerConfiguration(dataDirectory: folder, projectID: "bench-project", options: options),
                logger: logger)
            let tally: HTTPLoad.Tally
            do {
                tally = try await load(server, logger: logger)
            } catch {
                await server.shutdown()
                throw error
            }
            await server.shutdown()
            let calls = await standIn.accounts.calls
            await google.stop()
            return Run(
                reuse: reuse, tokensPerSecond: Double(tally.succeeded) / Double(seconds), failed: tally.failed,
                iamCallsPerToken: Double(calls.signJwt) / Double(max(tally.succeeded, 1)),
                metadataTokenFetches: calls.metadataToken,
                latency: LatencySummary(tally.latencies))
        } catch {
            await google.stop()
            throw error
        }
    }

    /// Enrolls one driver assigned to every vehicle, serves `server`, and asks for each
    /// vehicle's token once per interval, spread over the connections.
    private func load(_ server: TokenServer, logger: Logger) async throws -> HTTPLoad.Tally {
        let username = "bench-driver", password = "bench-password-\(UUID().uuidString)"
        let administration = AccountAdministration(store: server.store, hasher: PasswordHasher(cost: 4))
        _ = try await administration.createAccount(username: username, password: password, roleName: "driver")
        for index in 0..<vehicles {
            _ = try await administration.assign(Resource(.vehicle, id: "vehicle-\(index)"), to: username)
        }
        let serving = try await RunningService.start(logger: logger) { server.application(port: 0, onRunning: $0) }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let session = try await Self.logIn(port: serving.port, username: username, password: password)
            let (vehicles, connections) = (vehicles, min(connections, vehicles))
            let tally = try await HTTPLoad.run(
                host: "127.0.0.1", port: serving.port, connections: connections, duration: .seconds(seconds),
                rate: Double(vehicles) / interval, on: group
            ) { connection, n in
                let vehicle = (connection + n * connections) % vehicles
                let headers: HTTPHeaders = ["Host": "127.0.0.1", "Authorization": "Bearer \(session)"]
                return HTTPLoad.Request(
                    head: HTTPRequestHead(
                        version: .http1_1, method: .GET, uri: "/v1/tokens/driver/vehicle-\(vehicle)", headers: headers),
                    body: nil)
            }
            try? await group.shutdownGracefully()
            await serving.stop()
            return tally
        } catch {
            try? await group.shutdownGracefully()
            await serving.stop()
            throw error
        }
    }

    /// Logs in over HTTP like an app does, returning the session token.
    private static func logIn(port: Int, username: String, password: String) async throws -> String {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/sessions")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(["username": username, "password": password])
        let (data, _) = try await URLSession.shared.data(for: request)
        guard let body = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let session = body["sessionToken"] as? String
        else {
            throw CommandFailure("login failed: \(String(decoding: data, as: UTF8.self))")
        }
        return session
    }
}
