import ArgumentParser
import CommandSupport
import FleetAuthLocking
import FleetAuthServerHTTP
import FleetAuthServerStorage
import FleetDemo
import FleetTokens
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import TokenServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `fleetauth-bench token-server`: FleetAuth's token server (`fleetauth token-server`, a process
/// of its own, on SQLite, and with `--database-url` a second one on PostgreSQL) beside a minimal
/// Node.js token server (`Benchmarks/node/token-server.mjs`) and, when built, a minimal C one (`Benchmarks/c-token-server/token-server.c`, the fastest design
/// for the job), all with the same key, token, checks and answers, in one run: driver tokens
/// per second from `wrk` rotating over a fleet of logged-in drivers, tokens per CPU-second of
/// each server (from `/proc/<pid>/stat`), p50/p99 at full load and at half load (a paced,
/// open-loop generator that counts queueing against the server), all next to
/// `openssl speed -multi 2 rsa2048` measured between the runs.
struct TokenServerBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token-server",
        abstract:
            "Token server vs minimal Node.js and C token servers and two cores of OpenSSL: tokens/s, tokens per CPU-second, p50/p99."
    )

    @Option(help: "Concurrent keep-alive connections at full load (and at half load).")
    var connections = 32

    @Option(help: "Drivers, each logged in and assigned to a vehicle of its own; the requests rotate over them.")
    var vehicles = 1000

    @Option(help: "Seconds per measured run (after a 1 s warm-up of each server).")
    var seconds = 5

    @Option(
        help:
            "Rounds of (openssl, FleetAuth, FleetAuth without its record, Node.js, C) runs, interleaved; medians are reported."
    )
    var rounds = 3

    @Option(help: "Processes for 'openssl speed -multi' (the cores the servers may use).")
    var cores = 2

    @Option(help: "Threads of the load generators, wrk and the paced one (they share the machine with the server).")
    var clientThreads = 1

    @Option(
        help: "A PostgreSQL URL: FleetAuth runs on it too, beside FleetAuth on SQLite (or $FLEETAUTH_DATABASE_URL).")
    var databaseURL: String?

    @Option(help: "Revocations across two replicas on PostgreSQL, under full load (with a PostgreSQL URL only).")
    var revocations = 1000

    @Option(help: "The C competitor, built by Benchmarks/c-token-server/build.sh; skipped when it is not there.")
    var cServer = ".build-c-token-server/token-server"

    @Flag(help: "Print JSON.")
    var json = false

    static let nodeRatioTarget = 1.0
    static let opensslRatioTarget = 0.8
    static let p99TargetMilliseconds = 20.0
    static let postgresRatioTarget = 0.9
    static let recordRatioTarget = 0.9
    static let revocationP99TargetMilliseconds = 100.0

    /// A server under load, with the drivers whose requests it answers.
    struct Contender {
        let server: ServerProcess
        let fleet: BenchFleet
        /// The drivers' requests, one per line, for wrk.
        let requestsFile: String
        /// FleetAuth on PostgreSQL's database, counting its table reads.
        var tableReads: PostgresTableReads?
    }

    /// One server's numbers.
    struct ServerReport: Encodable {
        let name: String
        /// Each round's tokens per second at full load.
        let tokensPerSecond: [Double]
        /// Each round's tokens per CPU-second of the server process (all its threads).
        let tokensPerCPUSecond: [Double]
        /// Median of the rounds' full-load percentiles (closed loop, from `wrk`).
        let fullLoad: LatencySummary
        /// The paced rate: half the median tokens per second.
        let halfLoadRate: Double
        let halfLoad: LatencySummary
        let failed: Int
        /// On PostgreSQL: the median over the rounds of the table reads (scans) per token
        /// served at full load.
        let postgresTableReadsPerToken: Double?

        /// The report of `runs` at full load and a paced run at `halfLoadRate`.
        init(_ name: String, runs: [FullLoadRun], halfLoadRate: Double, halfLoad: HTTPLoad.Tally) {
            self.name = name
            tokensPerSecond = runs.map(\.tokensPerSecond)
            tokensPerCPUSecond = runs.map(\.tokensPerCPUSecond)
            let answers: Int = runs.map(\.latency.count).reduce(0, +)
            fullLoad = LatencySummary(
                count: answers,
                p50Milliseconds: Throughput.median(runs.map(\.latency.p50Milliseconds)),
                p99Milliseconds: Throughput.median(runs.map(\.latency.p99Milliseconds)),
                maxMilliseconds: runs.map(\.latency.maxMilliseconds).max() ?? 0)
            self.halfLoadRate = halfLoadRate
            self.halfLoad = LatencySummary(halfLoad.latencies)
            failed = runs.map(\.failed).reduce(0, +) + halfLoad.failed
            let tableReads = runs.compactMap(\.postgresTableReadsPerToken)
            postgresTableReadsPerToken = tableReads.isEmpty ? nil : Throughput.median(tableReads)
        }
    }

    /// One full-load run of one server.
    struct FullLoadRun {
        let tokensPerSecond: Double
        /// Per CPU-second of the server process (all its threads).
        let tokensPerCPUSecond: Double
        let latency: LatencySummary
        let failed: Int
        let postgresTableReadsPerToken: Double?
    }

    /// The whole run, as the table and the JSON show it.
    struct Report: Encodable {
        let database: String
        let connections: Int
        let vehicles: Int
        let secondsPerRun: Int
        let opensslSignPerSecond: [Double]
        /// One `openssl speed` process's signs per CPU-second of its own.
        let opensslSignPerCPUSecond: [Double]
        let fleetAuth: ServerReport
        /// FleetAuth on PostgreSQL, when a URL was given.
        let fleetAuthPostgres: ServerReport?
        /// FleetAuth on SQLite with the record of tokens off (`--no-record`).
        let fleetAuthWithoutRecord: ServerReport
        let node: ServerReport
        /// The C competitor's numbers, when it was built.
        let cServer: ServerReport?
        /// FleetAuth's tokens/s over Node's (medians).
        let nodeRatio: Double
        /// FleetAuth's tokens/s over `openssl speed -multi` sign/s (medians).
        let opensslRatio: Double
        let nodeOpensslRatio: Double
        /// The C competitor's tokens/s over `openssl speed -multi` sign/s (medians), when it ran.
        let cServerOpensslRatio: Double?
        /// FleetAuth's tokens per CPU-second over Node's.
        let cpuRatio: Double
        /// FleetAuth on PostgreSQL's tokens/s over FleetAuth on SQLite's: the median over the
        /// rounds of the same round's ratio.
        let postgresRatio: Double?
        /// FleetAuth's tokens/s with the record over without it: the median over the rounds of
        /// the same round's ratio.
        let recordRatio: Double
        /// Revocations made on a second replica, seen by the one under full load (PostgreSQL only).
        var revocation: RevocationLatency.Result?
    }

    func run() async throws {
        let folder = try BenchFolder.create()
        defer { BenchFolder.remove(folder) }
        var logger = Logger(label: "bench", factory: DeferredMetadataLogHandler.standardError)
        logger.logLevel = .warning
        let databaseURL =
            databaseURL
            ?? ProcessInfo.processInfo.environment["FLEETAUTH_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        let nodeScript = try BenchmarkFiles.path("node/token-server.mjs")
        if !json { FileHandle.standardError.write(Data("creating \(vehicles) logged-in drivers…\n".utf8)) }
        var servers: [ServerProcess] = []
        defer { servers.forEach { $0.stop() } }
        /// FleetAuth on the database `url` names (SQLite without one), with a fleet of its own
        /// and `options` after the bench's own.
        func fleetAuth(name: String, url: String?, folder subfolder: String, options: [String] = []) async throws
            -> Contender
        {
            let dataDirectory = folder + "/" + subfolder
            let configuration = TokenServerConfiguration(
                dataDirectory: dataDirectory, databaseURL: url, projectID: "bench-project",
                options: TokenServerOptions(bcryptCost: 4))
            let fleet = try await BenchFleet.create(count: vehicles, configuration: configuration, logger: logger)
            let requestsFile = folder + "/requests-" + subfolder
            try fleet.writeRequests(to: requestsFile)
            let server = try await ServerProcess.start(
                name: name,
                arguments: [
                    BenchExecutables.fleetAuth, "token-server", "--data-dir", dataDirectory, "--port", "0", "--project",
                    "bench-project", "--token-requests-per-minute", "0",
                ] + options,
                environment: url.map { ["FLEETAUTH_DATABASE_URL": $0] } ?? [:],
                port: Self.fleetAuthPort)
            servers.append(server)
            return Contender(server: server, fleet: fleet, requestsFile: requestsFile)
        }
        let sqlite = try await fleetAuth(name: "FleetAuth", url: nil, folder: "data")
        var postgres: Contender?
        if let databaseURL {
            postgres = try await fleetAuth(name: "FA on PG", url: databaseURL, folder: "data-postgres")
            postgres?.tableReads = try await PostgresTableReads.open(url: databaseURL, logger: logger)
        }
        let fixturesFile = folder + "/competitor-fixtures.json"
        try sqlite.fleet.writeCompetitorFixtures(to: fixturesFile)
        var contenders = [sqlite]
        if let postgres { contenders.append(postgres) }
        // What the record of tokens costs, measured in the same rounds (issue #47).
        contenders.append(
            try await fleetAuth(name: "FA no rec", url: nil, folder: "data-no-record", options: ["--no-record"]))
        let node = try await ServerProcess.start(
            name: "Node.js", arguments: ["node", nodeScript, fixturesFile], port: ServerProcess.listeningPort)
        servers.append(node)
        contenders.append(Contender(server: node, fleet: sqlite.fleet, requestsFile: sqlite.requestsFile))
        if FileManager.default.isExecutableFile(atPath: cServer) {
            let c = try await ServerProcess.start(
                name: "C", arguments: [cServer, fixturesFile], port: ServerProcess.listeningPort)
            servers.append(c)
            contenders.append(Contender(server: c, fleet: sqlite.fleet, requestsFile: sqlite.requestsFile))
        } else {
            FileHandle.standardError.write(
                Data("skipped the C competitor: no \(cServer); build it with Benchmarks/c-token-server/build.sh\n".utf8)
            )
        }
        for contender in contenders {
            try await Self.checkSameAnswers(server: contender.server, fleet: contender.fleet)
        }
        var report: Report
        do {
            report = try await measure(
                contenders: contenders, hasPostgres: postgres != nil, folder: folder,
                database: databaseURL.map { DatabaseLocation.postgres(url: $0) })
        } catch {
            await postgres?.tableReads?.close()
            throw error
        }
        await postgres?.tableReads?.close()
        if let postgres, let databaseURL, revocations > 0 {
            // A second replica on the same database, sharing the first one's keys and admin key,
            // as replicas do (on PostgreSQL the folder is not locked).
            let replicaDirectory = folder + "/data-postgres"
            let replica = try await ServerProcess.start(
                name: "FA replica",
                arguments: [
                    BenchExecutables.fleetAuth, "token-server", "--data-dir", replicaDirectory, "--port", "0",
                    "--project", "bench-project", "--token-requests-per-minute", "0",
                    // Its accounts made again after a deletion are the bench's, as quick to log in as the others.
                    "--bcrypt-cost", "4",
                ],
                environment: ["FLEETAUTH_DATABASE_URL": databaseURL], port: Self.fleetAuthPort)
            servers.append(replica)
            let adminKey = try String(contentsOfFile: replicaDirectory + "/admin-key", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            report.revocation = try await revocationsUnderLoad(
                RevocationLatency(replica: postgres.server.port, revoker: replica.port, adminKey: adminKey),
                contender: postgres, folder: folder)
        }
        if json { return try JSONOutput.print(report) }
        print(Self.table(report, cores: cores))
    }

    /// Interleaves rounds of OpenSSL and the servers (FleetAuth, on PostgreSQL too with a URL,
    /// FleetAuth without its record, Node.js, then the C competitor if it runs) at full load, the servers' order alternating, then paces each server at half
    /// its rate.
    private func measure(contenders: [Contender], hasPostgres: Bool, folder: String, database: DatabaseLocation?)
        async throws -> Report
    {
        func fullLoad(_ contender: Contender, seconds: Int) async throws -> FullLoadRun {
            let server = contender.server
            let tableReadsBefore = try await contender.tableReads?.count()
            let cpuStart = try server.cpuSeconds()
            let run = try await Wrk.run(
                url: "http://127.0.0.1:\(server.port)", connections: connections, threads: clientThreads,
                seconds: seconds,
                script: "token-requests.lua", arguments: [contender.requestsFile], folder: folder)
            let cpuSeconds = try server.cpuSeconds() - cpuStart
            var tableReadsPerToken: Double?
            if let tableReads = contender.tableReads, let tableReadsBefore {
                // A backend that went idle reports its counts within PostgreSQL's idle interval (10 s).
                try await Task.sleep(for: .seconds(11))
                tableReadsPerToken =
                    Double(try await tableReads.count() - tableReadsBefore) / Double(max(run.succeeded, 1))
            }
            return FullLoadRun(
                tokensPerSecond: Double(run.succeeded) / run.seconds,
                tokensPerCPUSecond: Double(run.succeeded) / max(cpuSeconds, 1e-9),
                latency: run.latency,
                failed: run.failed,
                postgresTableReadsPerToken: tableReadsPerToken)
        }
        for contender in contenders {
            _ = try await fullLoad(contender, seconds: 1)
        }
        var openssl: [Double] = [], opensslPerCPU: [Double] = []
        var runs: [ObjectIdentifier: [FullLoadRun]] = [:]
        for round in 1...rounds {
            openssl.append(try await OpenSSLSpeed.measure(seconds: seconds, processes: cores).signsPerSecond)
            opensslPerCPU.append(try await OpenSSLSpeed.measure(seconds: seconds).signsPerSecond)
            for contender in round % 2 == 1 ? contenders : contenders.reversed() {
                let server = contender.server
                let measured = try await fullLoad(contender, seconds: seconds)
                runs[ObjectIdentifier(server.process), default: []].append(measured)
                if !json {
                    FileHandle.standardError.write(
                        Data(
                            String(
                                format:
                                    "round %d/%d: %@ %.0f tokens/s, %.0f per CPU-second, p99 %.2f ms (openssl %.0f sign/s)\n",
                                round, rounds, server.name, measured.tokensPerSecond, measured.tokensPerCPUSecond,
                                measured.latency.p99Milliseconds, openssl.last!
                            ).utf8))
                }
            }
        }
        var reports: [ServerReport] = []
        for contender in contenders {
            let serverRuns = runs[ObjectIdentifier(contender.server.process)] ?? []
            let halfRate = Throughput.median(serverRuns.map(\.tokensPerSecond)) / 2
            let paced = try await halfLoad(port: contender.server.port, rate: halfRate, fleet: contender.fleet)
            reports.append(
                ServerReport(contender.server.name, runs: serverRuns, halfLoadRate: halfRate, halfLoad: paced))
        }
        let ours = reports.removeFirst()
        let postgres = hasPostgres ? reports.removeFirst() : nil
        let withoutRecord = reports.removeFirst()
        let (theirs, c) = (reports[0], reports.count > 1 ? reports[1] : nil)
        return Report(
            database: database?.description ?? "sqlite",
            connections: connections,
            vehicles: vehicles,
            secondsPerRun: seconds,
            opensslSignPerSecond: openssl,
            opensslSignPerCPUSecond: opensslPerCPU,
            fleetAuth: ours,
            fleetAuthPostgres: postgres,
            fleetAuthWithoutRecord: withoutRecord,
            node: theirs,
            cServer: c,
            nodeRatio: Throughput.median(ours.tokensPerSecond) / Throughput.median(theirs.tokensPerSecond),
            opensslRatio: Throughput.median(ours.tokensPerSecond) / Throughput.median(openssl),
            nodeOpensslRatio: Throughput.median(theirs.tokensPerSecond) / Throughput.median(openssl),
            cServerOpensslRatio: c.map { Throughput.median($0.tokensPerSecond) / Throughput.median(openssl) },
            cpuRatio: Throughput.median(ours.tokensPerCPUSecond) / Throughput.median(theirs.tokensPerCPUSecond),
            postgresRatio: postgres.map { postgres in
                Throughput.median(zip(postgres.tokensPerSecond, ours.tokensPerSecond).map { $0 / $1 })
            },
            recordRatio: Throughput.median(zip(ours.tokensPerSecond, withoutRecord.tokensPerSecond).map { $0 / $1 })
        )
    }

    /// ``RevocationLatency`` while `wrk` keeps `contender` (the replica whose memory must let
    /// go) under full load, run after run, until the revocations are done.
    private func revocationsUnderLoad(_ revocation: RevocationLatency, contender: Contender, folder: String)
        async throws -> RevocationLatency.Result
    {
        // The drivers of the second half are revoked (the checks above used the first two); wrk
        // asks for the first half's tokens only, so that its load stays the same throughout
        // (a driver logged out or deleted comes back with another session).
        let drivers = contender.fleet.drivers
        let steadyRequests = folder + "/requests-steady"
        try contender.fleet.writeRequests(of: Array(drivers.prefix(drivers.count / 2)), to: steadyRequests)
        let done = Locked(false)
        let load = Task {
            while !done.withLock({ $0 }) {
                _ = try await Wrk.run(
                    url: "http://127.0.0.1:\(contender.server.port)", connections: connections, threads: clientThreads,
                    seconds: 2,
                    script: "token-requests.lua", arguments: [steadyRequests], folder: folder)
            }
        }
        defer { done.withLock { $0 = true } }
        let result = try await revocation.measure(
            count: revocations, drivers: Array(drivers.dropFirst(drivers.count / 2)))
        done.withLock { $0 = true }
        try await load.value
        return result
    }

    /// Requests on a timetable at `rate` per second over `connections` connections, rotating
    /// over the fleet, with latency measured from when each request was due.
    private func halfLoad(port: Int, rate: Double, fleet: BenchFleet) async throws -> HTTPLoad.Tally {
        let heads = fleet.drivers.map { driver in
            HTTPRequestHead(
                version: .http1_1, method: .GET, uri: "/v1/tokens/driver/\(driver.vehicleID)",
                headers: ["Host": "127.0.0.1", "Authorization": "Bearer \(driver.sessionToken)"])
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: clientThreads)
        defer { group.shutdownGracefully { _ in } }
        let connections = self.connections
        return try await HTTPLoad.run(
            host: "127.0.0.1", port: port, connections: connections, duration: .seconds(seconds), rate: rate, on: group
        ) { connection, n in
            HTTPLoad.Request(head: heads[(connection + n * connections) % heads.count], body: nil)
        }
    }

    /// The port in `token server listening on http://127.0.0.1:PORT (…)` (or `https://`).
    @Sendable static func fleetAuthPort(_ line: Substring) -> Int? {
        guard
            let start = line.range(of: "listening on http://")?.upperBound
                ?? line.range(of: "listening on https://")?.upperBound
        else { return nil }
        let address = line[start...].prefix { $0 != " " && $0 != "/" }
        return address.lastIndex(of: ":").flatMap { Int(address[address.index(after: $0)...]) }
    }

    /// Every server answers the first driver's request with a token for its vehicle signed by
    /// the driver key, and refuses it a token for the second driver's vehicle with 403: the
    /// competitors do the same work.
    private static func checkSameAnswers(server: ServerProcess, fleet: BenchFleet) async throws {
        guard fleet.drivers.count >= 2 else { throw ValidationError("--vehicles must be at least 2") }
        let verifier = TokenVerifier(trusting: fleet.trustedAccounts)
        let (first, second) = (fleet.drivers[0], fleet.drivers[1])
        do {
            let (granted, status) = try await tokenAnswer(port: server.port, driver: first, vehicleID: first.vehicleID)
            guard status == 200, let token = granted["token"] as? String, granted["expiresInSeconds"] is Int,
                let verified = try? verifier.verifyWithoutCache(token), verified.role == FleetEngineRole.driverSDKUser,
                verified.authorization.vehicleID == first.vehicleID
            else {
                throw CommandFailure(
                    "\(server.name) did not answer a driver's token request with a valid driver token (status \(status))"
                )
            }
            let (_, refused) = try await tokenAnswer(port: server.port, driver: first, vehicleID: second.vehicleID)
            guard refused == 403 else {
                throw CommandFailure(
                    "\(server.name) answered \(refused), not 403, for a vehicle its driver is not assigned to")
            }
        }
    }

    /// `GET /v1/tokens/driver/{vehicleID}` as `driver`: the JSON object answered and the status.
    private static func tokenAnswer(port: Int, driver: BenchFleet.Driver, vehicleID: String) async throws -> (
        [String: Any], Int
    ) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/tokens/driver/\(vehicleID)")!)
        request.setValue("Bearer \(driver.sessionToken)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (object, (response as? HTTPURLResponse)?.statusCode ?? 0)
    }

    private static func table(_ report: Report, cores: Int) -> String {
        let openssl = Throughput.median(report.opensslSignPerSecond)
        let nodeOK = report.nodeRatio >= nodeRatioTarget, opensslOK = report.opensslRatio >= opensslRatioTarget
        let p99OK = report.fleetAuth.halfLoad.p99Milliseconds < p99TargetMilliseconds
        func row(_ server: ServerReport) -> String {
            let tokens = Throughput.median(server.tokensPerSecond)
            return server.name.padding(toLength: 10, withPad: " ", startingAt: 0)
                + String(
                    format: " %9.0f %8.2fx %10.0f %7.2f / %-7.2f %8.0f %7.2f / %-7.2f %6d",
                    tokens, tokens / openssl, Throughput.median(server.tokensPerCPUSecond),
                    server.fullLoad.p50Milliseconds, server.fullLoad.p99Milliseconds, server.halfLoadRate,
                    server.halfLoad.p50Milliseconds, server.halfLoad.p99Milliseconds, server.failed)
        }
        let servers =
            [report.fleetAuth] + (report.fleetAuthPostgres.map { [$0] } ?? []) + [
                report.fleetAuthWithoutRecord, report.node,
            ]
            + (report.cServer.map { [$0] } ?? [])
        let cLine =
            report.cServerOpensslRatio.map {
                [
                    String(
                        format: "C / openssl: %.2fx, the fastest competitor beside FleetAuth's target of %.2fx", $0,
                        opensslRatioTarget)
                ]
            } ?? []
        return
            ([
                "token servers, GET /v1/tokens/driver/{id}: \(report.connections) connections over \(report.vehicles) drivers, \(report.secondsPerRun) s runs, medians of \(report.opensslSignPerSecond.count) rounds; FleetAuth on sqlite\(report.fleetAuthPostgres == nil ? "" : " and on \(report.database)")",
                String(
                    format: "openssl speed -multi %d rsa2048: %.0f sign/s; one process: %.0f sign per CPU-second",
                    cores, openssl,
                    Throughput.median(report.opensslSignPerCPUSecond)),
                "server      tokens/s  vs openssl  tokens/CPU-s  full load p50 / p99 ms  half load/s  p50 / p99 ms  failed",
            ] + servers.map(row) + [
                String(
                    format: "FleetAuth / Node.js: %.2fx tokens/s (target >= %.2fx %@), %.2fx tokens per CPU-second",
                    report.nodeRatio, nodeRatioTarget,
                    nodeOK ? "ok" : "MISSED", report.cpuRatio),
                String(
                    format:
                        "FleetAuth / openssl: %.2fx (target >= %.2fx %@); FleetAuth p99 at half load %.2f ms (target < %.0f ms %@)",
                    report.opensslRatio, opensslRatioTarget, opensslOK ? "ok" : "MISSED",
                    report.fleetAuth.halfLoad.p99Milliseconds,
                    p99TargetMilliseconds, p99OK ? "ok" : "MISSED"),
                String(
                    format:
                        "FleetAuth with the record / without: %.2fx tokens/s (target >= %.2fx %@; medians over rounds of the same round's ratio)",
                    report.recordRatio, recordRatioTarget, report.recordRatio >= recordRatioTarget ? "ok" : "MISSED"),
            ] + cLine
            + (report.postgresRatio.map {
                [
                    String(
                        format:
                            "FleetAuth on PostgreSQL / on SQLite: %.2fx tokens/s (target >= %.2fx %@); PostgreSQL table reads per token: %.4f",
                        $0, postgresRatioTarget, $0 >= postgresRatioTarget ? "ok" : "MISSED",
                        report.fleetAuthPostgres?.postgresTableReadsPerToken ?? 0)
                ]
            } ?? [])
            + (report.revocation.map { result in
                [
                    String(
                        format:
                            "revocation on one replica seen by the other under full load (%d): p50 %.1f ms, p99 %.1f ms (target < %.0f ms %@), max %.1f ms; revoking replica granted after its own revocation: %d",
                        result.all.revocations, result.all.p50Milliseconds, result.all.p99Milliseconds,
                        revocationP99TargetMilliseconds,
                        result.all.p99Milliseconds < revocationP99TargetMilliseconds ? "ok" : "MISSED",
                        result.all.maxMilliseconds, result.revokerGranted)
                ]
                    + RevocationLatency.Kind.allCases.compactMap { kind in
                        result.byKind[kind.rawValue].map {
                            String(
                                format: "  by %@ (%d): p50 %.1f ms, p99 %.1f ms, max %.1f ms", kind.rawValue,
                                $0.revocations, $0.p50Milliseconds,
                                $0.p99Milliseconds, $0.maxMilliseconds)
                        }
                    }
            } ?? [])).joined(separator: "\n")
    }
}
