import ArgumentParser
import FleetServerSupport
import FleetTokens
import Foundation
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
/// `openssl speed -multi 2 rsa2048` measured in the same run; then latency at half that rate.
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

    @Option(help: "Event-loop threads of the load generator (it shares the machine with the server).")
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
        /// Tokens per CPU-second of this process (server and load generator together), times
        /// the cores: what the server would do with the cores to itself. Robust to other load
        /// on the machine, as `openssl speed` (which counts CPU time too) is.
        let tokensPerSecondOnCores: [Double]
        let failed: Int
        let ratio: Double
        let cpuRatio: Double
        let halfLoadRate: Double
        let halfLoad: LatencySummary
    }

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleetauth-bench-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        let configuration = TokenServerConfiguration(
            dataDirectory: folder, databaseURL: databaseURL, projectID: "bench-project", options: TokenServerOptions(bcryptCost: 4)
        )
        let server = try await TokenServer.open(configuration, logger: logger)
        let vehicle = "bench-vehicle-\(UUID().uuidString.prefix(8))"
        let username = "bench-driver-\(UUID().uuidString.prefix(8))"
        let password = SecretToken.generate(prefix: "pw-")
        let administration = AccountAdministration(store: server.store, hasher: PasswordHasher(cost: 4))
        _ = try await administration.createAccount(username: username, password: String(password.prefix(40)), roleName: "driver")
        _ = try await administration.assign(Resource(.vehicle, id: vehicle), to: username)

        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let application = server.application(host: "127.0.0.1", port: 0) { port in portContinuation.yield(port) }
        let services = ServiceGroup(configuration: .init(services: [application], logger: logger))
        let serving = Task { try await services.run() }
        defer { serving.cancel() }
        guard let port = await portStream.first(where: { _ in true }) else { throw CommandFailure("the token server did not start") }

        let session = try await Self.logIn(port: port, username: username, password: String(password.prefix(40)))
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/v1/tokens/driver/\(vehicle)", headers: [
            "Host": "127.0.0.1", "Authorization": "Bearer \(session)",
        ])
        let group = MultiThreadedEventLoopGroup(numberOfThreads: clientThreads)
        func load(rate: Double?, seconds: Int) async throws -> PacedLoad.Result {
            try await PacedLoad.run(host: "127.0.0.1", port: port, connections: connections, rate: rate, duration: .seconds(seconds), on: group, head: head)
        }
        _ = try await load(rate: nil, seconds: 1)
        var openssl: [Double] = [], tokens: [Double] = [], onCores: [Double] = []
        var failed = 0
        for round in 1...rounds {
            openssl.append(try OpenSSLSpeed.measure(seconds: seconds, processes: cores).signsPerSecond)
            let start = ContinuousClock.now, cpuStart = Self.processCPUSeconds()
            let tally = try await load(rate: nil, seconds: seconds)
            let elapsed = ContinuousClock.now - start, cpu = Self.processCPUSeconds() - cpuStart
            tokens.append(Double(tally.succeeded) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18))
            onCores.append(Double(tally.succeeded) / max(cpu, 1e-9) * Double(cores))
            failed += tally.failed
            if !json {
                FileHandle.standardError.write(Data("round \(round)/\(rounds): openssl \(Int(openssl.last!)) sign/s, token server \(Int(tokens.last!)) tokens/s (\(Int(onCores.last!)) per \(cores) CPU-seconds)\n".utf8))
            }
        }
        let halfRate = Throughput.median(tokens) / 2
        let paced = try await load(rate: halfRate, seconds: seconds)
        failed += paced.failed

        let report = Report(
            database: configuration.databaseLocation.description,
            connections: connections,
            secondsPerRun: seconds,
            opensslSignPerSecond: openssl,
            tokensPerSecond: tokens,
            tokensPerSecondOnCores: onCores,
            failed: failed,
            ratio: Throughput.median(tokens) / Throughput.median(openssl),
            cpuRatio: Throughput.median(onCores) / Throughput.median(openssl),
            halfLoadRate: halfRate,
            halfLoad: LatencySummary(paced.latencies)
        )
        try? await group.shutdownGracefully()
        await services.triggerGracefulShutdown()
        _ = await serving.result
        await server.shutdown()
        if json { return try JSONOutput.print(report) }
        print(Self.table(report, cores: cores))
    }

    /// User plus system CPU time of this process so far, in seconds.
    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }

    /// Logs in over HTTP like an app does, returning the session token.
    private static func logIn(port: Int, username: String, password: String) async throws -> String {
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
            String(format: "  the same per %d CPU-seconds       %8.0f tokens     %.2fx   (server and load generator; robust to other load)",
                   cores, Throughput.median(report.tokensPerSecondOnCores), report.cpuRatio),
            String(format: "at half load (%.0f/s)             p50 %.2f ms   p99 %.2f ms   max %.2f ms   target p99 < %.0f ms  %@",
                   report.halfLoadRate, report.halfLoad.p50Milliseconds, report.halfLoad.p99Milliseconds, report.halfLoad.maxMilliseconds,
                   p99TargetMilliseconds, p99OK ? "ok" : "MISSED"),
            "failed requests: \(report.failed)",
        ].joined(separator: "\n")
    }
}

/// Latency percentiles of a run, in milliseconds.
struct LatencySummary: Encodable {
    let count: Int
    let p50Milliseconds: Double
    let p99Milliseconds: Double
    let maxMilliseconds: Double

    init(_ nanoseconds: [Int64]) {
        let sorted = nanoseconds.sorted()
        func at(_ fraction: Double) -> Double {
            sorted.isEmpty ? 0 : Double(sorted[Int((Double(sorted.count - 1) * fraction).rounded())]) / 1e6
        }
        count = sorted.count
        p50Milliseconds = at(0.5)
        p99Milliseconds = at(0.99)
        maxMilliseconds = at(1)
    }
}

/// HTTP/1.1 load on keep-alive connections, one request in flight on each. With a `rate`, an
/// open loop: each connection sends on a timetable and latency is measured from when a request
/// was due, not when it went out, so a stalled server's queue counts against it (no
/// coordinated omission). Without one, a closed loop: the next request is due the moment the
/// previous answer has ended.
enum PacedLoad {
    struct Result: Sendable {
        var succeeded = 0
        var latencies: [Int64] = []
        var failed = 0
    }

    static func run(
        host: String, port: Int, connections: Int, rate: Double?, duration: Duration,
        on group: any EventLoopGroup, head: HTTPRequestHead
    ) async throws -> Result {
        let interval = rate.map { TimeAmount.nanoseconds(Int64(Double(connections) / max($0, 1) * 1e9)) }
        let start = NIODeadline.now() + .milliseconds(50)
        let end = start + .nanoseconds(duration.components.seconds * 1_000_000_000)
        var finished: [EventLoopFuture<Result>] = []
        for index in 0..<connections {
            let loop = group.next()
            let done = loop.makePromise(of: Result.self)
            let first = start + .nanoseconds((interval?.nanoseconds ?? 0) * Int64(index) / Int64(connections))
            _ = try await ClientBootstrap(group: loop)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(Connection(head: head, first: first, interval: interval, end: end, done: done))
                    }
                }
                .connect(host: host, port: port).get()
            finished.append(done.futureResult)
        }
        var total = Result()
        for future in finished {
            let result = try await future.get()
            total.succeeded += result.succeeded
            total.latencies += result.latencies
            total.failed += result.failed
        }
        return total
    }

    /// One connection's timetable: a tick every `interval` queues a request (or, with no
    /// interval, each answer queues the next); one is in flight at a time; the queue drains as
    /// answers arrive.
    private final class Connection: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundOut = HTTPClientRequestPart

        private let head: HTTPRequestHead
        private let interval: TimeAmount?
        private let end: NIODeadline
        private let done: EventLoopPromise<Result>
        private var next: NIODeadline
        private var due: [NIODeadline] = []
        private var inFlight: NIODeadline?
        private var status = HTTPResponseStatus.ok
        private var result = Result()

        init(head: HTTPRequestHead, first: NIODeadline, interval: TimeAmount?, end: NIODeadline, done: EventLoopPromise<Result>) {
            self.head = head
            self.next = first
            self.interval = interval
            self.end = end
            self.done = done
        }

        func channelActive(context: ChannelHandlerContext) {
            scheduleTick(context)
            context.fireChannelActive()
        }

        private func scheduleTick(_ context: ChannelHandlerContext) {
            guard next < end else {
                if inFlight == nil { context.close(promise: nil) }
                return
            }
            let deadline = next
            context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
                self.due.append(deadline)
                if let interval = self.interval {
                    self.next = deadline + interval
                    self.scheduleTick(context)
                }
                if self.inFlight == nil { self.send(context) }
            }
        }

        private func send(_ context: ChannelHandlerContext) {
            guard !due.isEmpty else { return }
            inFlight = due.removeFirst()
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                status = head.status
            case .body:
                break
            case .end:
                let now = NIODeadline.now()
                if let scheduled = inFlight { result.latencies.append((now - scheduled).nanoseconds) }
                if status == .ok { result.succeeded += 1 } else { result.failed += 1 }
                inFlight = nil
                if interval == nil, now < end { due.append(now) }
                if !due.isEmpty {
                    send(context)
                } else if interval == nil || next >= end {
                    context.close(promise: nil)
                }
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            result.failed += 1
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            done.succeed(result)
            context.fireChannelInactive()
        }
    }
}
