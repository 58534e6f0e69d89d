import ArgumentParser
import CommandSupport
import FleetAuthServerHTTP
import Foundation
import Logging
import TokenServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `fleetauth-bench token-server-operations`: what running the token server as in production
/// costs, as ratios in one run: tokens/s with the record of tokens (the default) against
/// `--no-record`, with `--log-format json` against text logs (both at info level), the same
/// with `--access-log` (a line per request), and over TLS with keep-alive (`--tls-cert`)
/// against plain HTTP. Each variant is a `fleetauth token-server` process of its
/// own on a data directory of its own; `wrk` rotates over the same logged-in drivers; the
/// variants' runs interleave, their order alternating; medians of tokens/s, and of each round's
/// ratios, are reported, and where the record's CPU time goes, by the server's thread groups.
struct TokenServerOperationsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token-server-operations",
        abstract:
            "Token server: the record on vs off, JSON logs vs text logs, TLS vs plain HTTP (tokens/s, ratios in one run)."
    )

    @Option(help: "Concurrent keep-alive connections.")
    var connections = 32

    @Option(help: "Drivers, each logged in and assigned to a vehicle of its own.")
    var vehicles = 200

    @Option(help: "Seconds per measured run (after a 1 s warm-up of each server).")
    var seconds = 5

    @Option(help: "Rounds of runs, interleaved; medians are reported.")
    var rounds = 3

    @Option(help: "Threads of wrk.")
    var clientThreads = 1

    @Flag(help: "Only the record's pair (record on, --no-record): more rounds in the same time.")
    var recordOnly = false

    @Option(
        help:
            "The C competitor (Benchmarks/c-token-server/build.sh): run with and without its record too; skipped when it is not there."
    )
    var cServer = ".build-c-token-server/token-server"

    /// The promises (docs/performance.md).
    static let recordRatioTarget = 0.9
    static let jsonLogsRatioTarget = 0.95
    static let tlsRatioTarget = 0.8

    /// One variant of the server, and what it was given.
    private struct Variant {
        let name: String
        let arguments: [String]
        let scheme: String
        /// The C competitor's, not FleetAuth's.
        var isCompetitor = false
    }

    func run() async throws {
        let folder = try BenchFolder.create()
        defer { BenchFolder.remove(folder) }
        var logger = Logger(label: "bench", factory: DeferredMetadataLogHandler.standardError)
        logger.logLevel = .warning
        let certificate = folder + "/cert.pem", key = folder + "/key.pem"
        _ = try await ChildProcess.run([
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days",
            "1",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1",
        ]).checked()
        let fleetAuthVariants = [
            Variant(name: "text logs", arguments: ["--log-format", "text"], scheme: "http"),
            Variant(name: "JSON logs", arguments: ["--log-format", "json"], scheme: "http"),
            Variant(name: "JSON + access", arguments: ["--log-format", "json", "--access-log"], scheme: "http"),
            Variant(name: "TLS", arguments: ["--tls-cert", certificate, "--tls-key", key], scheme: "https"),
            Variant(name: "no record", arguments: ["--no-record"], scheme: "http"),
        ].filter { !recordOnly || $0.name == "text logs" || $0.name == "no record" }
        // The C competitor with FleetAuth's record (its table and indexes, a group commit) and
        // without: what the record costs a server that does nothing else.
        let competitors =
            FileManager.default.isExecutableFile(atPath: cServer)
            ? [
                Variant(
                    name: "C record", arguments: ["--record", folder + "/c-records.sqlite"], scheme: "http",
                    isCompetitor: true),
                Variant(name: "C no record", arguments: [], scheme: "http", isCompetitor: true),
            ] : []
        if competitors.isEmpty {
            FileHandle.standardError.write(Data("skipped the C competitor: no \(cServer)\n".utf8))
        }
        let variants = fleetAuthVariants + competitors
        var servers: [ServerProcess] = []
        defer { servers.forEach { $0.stop() } }
        var requestFiles: [String] = []
        var lastFleet: BenchFleet?
        for (index, variant) in variants.enumerated() {
            if variant.isCompetitor, let fleet = lastFleet {
                let fixtures = folder + "/competitor-fixtures.json"
                try fleet.writeCompetitorFixtures(to: fixtures)
                requestFiles.append(requestFiles[fleetAuthVariants.count - 1])
                servers.append(
                    try await ServerProcess.start(
                        name: variant.name, arguments: [cServer, fixtures] + variant.arguments,
                        port: ServerProcess.listeningPort))
                continue
            }
            let dataDirectory = folder + "/data-\(index)"
            let configuration = TokenServerConfiguration(
                dataDirectory: dataDirectory, databaseURL: nil, projectID: "bench-project",
                options: TokenServerOptions(bcryptCost: 4))
            let fleet = try await BenchFleet.create(count: vehicles, configuration: configuration, logger: logger)
            lastFleet = fleet
            let requests = folder + "/requests-\(index)"
            try fleet.writeRequests(to: requests)
            requestFiles.append(requests)
            servers.append(
                try await ServerProcess.start(
                    name: variant.name,
                    arguments: [
                        BenchExecutables.fleetAuth, "token-server", "--data-dir", dataDirectory, "--port", "0",
                        "--project", "bench-project", "--token-requests-per-minute", "0",
                    ]
                        + variant.arguments,
                    port: TokenServerBench.fleetAuthPort))
        }
        // The server's `fleetauth_token_issue_duration_seconds` so far (sum, count): from a
        // request's checks to its token going out, the wait for its record included. `nil` over TLS.
        func issueDurations(_ index: Int) async throws -> (sum: Double, count: Double)? {
            guard variants[index].scheme == "http", !variants[index].isCompetitor else { return nil }
            let (body, _) = try await URLSession.shared.data(
                from: URL(string: "http://127.0.0.1:\(servers[index].port)/metrics")!)
            func sample(_ name: String) -> Double {
                String(decoding: body, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(name + " ") }
                    .flatMap { Double($0.dropFirst(name.count + 1)) } ?? 0
            }
            return (
                sample("fleetauth_token_issue_duration_seconds_sum"),
                sample("fleetauth_token_issue_duration_seconds_count")
            )
        }
        // Tokens/s, the server's CPU time per token (µs), in all and by thread group, wrk's
        // median latency and the server's mean time to issue (ms): whether a variant costs work
        // or waiting, and where.
        func run(_ index: Int, seconds: Int) async throws
            -> (
                tokensPerSecond: Double, cpuMicroseconds: Double, threadMicroseconds: [String: Double],
                medianMilliseconds: Double, issueMilliseconds: Double?
            )
        {
            let cpuBefore = try servers[index].cpuSeconds()
            let threadsBefore = ThreadGroupCPU.read(pid: servers[index].process.pid)
            let issuedBefore = try await issueDurations(index)
            let run = try await Wrk.run(
                url: "\(variants[index].scheme)://127.0.0.1:\(servers[index].port)", connections: connections,
                threads: clientThreads,
                seconds: seconds, script: "token-requests.lua", arguments: [requestFiles[index]], folder: folder)
            guard run.failed == 0 else {
                throw CommandFailure("\(variants[index].name): \(run.failed) requests failed")
            }
            let issueMilliseconds = try await issueDurations(index).flatMap { after in
                issuedBefore.map { before in (after.sum - before.sum) * 1000 / max(after.count - before.count, 1) }
            }
            let tokens = Double(max(run.succeeded, 1))
            return (
                Double(run.succeeded) / run.seconds,
                (try servers[index].cpuSeconds() - cpuBefore) * 1e6 / tokens,
                ThreadGroupCPU.read(pid: servers[index].process.pid).since(threadsBefore).mapValues {
                    $0 * 1e6 / tokens
                },
                run.latency.p50Milliseconds, issueMilliseconds
            )
        }
        for index in variants.indices { _ = try await run(index, seconds: 1) }
        var measured = Array(repeating: [Double](), count: variants.count)
        var cpu = Array(repeating: [Double](), count: variants.count)
        var threadCPU = Array(repeating: [[String: Double]](), count: variants.count)
        for round in 1...rounds {
            let order = round % 2 == 1 ? Array(variants.indices) : variants.indices.reversed()
            for index in order {
                let result = try await run(index, seconds: seconds)
                measured[index].append(result.tokensPerSecond)
                cpu[index].append(result.cpuMicroseconds)
                threadCPU[index].append(result.threadMicroseconds)
                FileHandle.standardError.write(
                    Data(
                        String(
                            format:
                                "round %d/%d: %@ %.0f tokens/s, %.0f µs of server CPU a token, median latency %.1f ms, mean issue %.2f ms\n",
                            round, rounds, variants[index].name, result.tokensPerSecond, result.cpuMicroseconds,
                            result.medianMilliseconds,
                            result.issueMilliseconds ?? .nan
                        ).utf8))
            }
        }
        let medians = measured.map(Throughput.median)
        let cpuMedians = cpu.map(Throughput.median)
        // Each ratio is the median of the rounds' own ratios: a round's runs sit side by side,
        // so the machine's drift between rounds cancels out.
        func ratio(_ index: Int, to reference: Int = 0) -> Double {
            Throughput.median(zip(measured[index], measured[reference]).map { $0 / $1 })
        }
        let recordRatio = ratio(0, to: fleetAuthVariants.count - 1)
        for (index, variant) in variants.enumerated() {
            print(
                String(
                    format: "%-14@ %8.0f tokens/s, %4.0f µs of server CPU a token (medians of %d)",
                    variant.name as NSString, medians[index], cpuMedians[index], rounds))
        }
        print(String(format: "record on / --no-record: %.3f (target ≥ %.2f)", recordRatio, Self.recordRatioTarget))
        print(
            String(
                format: "server CPU a token, record on / --no-record: %.3f",
                Throughput.median(zip(cpu[0], cpu[fleetAuthVariants.count - 1]).map { $0 / $1 })))
        print("server CPU a token by thread group, record on − --no-record (medians of the rounds' differences):")
        print(Self.threadGroupDifferences(threadCPU[0], threadCPU[fleetAuthVariants.count - 1]))
        if !competitors.isEmpty {
            let cRecord = fleetAuthVariants.count, cNone = fleetAuthVariants.count + 1
            print(
                String(
                    format: "C competitor, record on / off: %.3f; server CPU a token, on / off: %.3f",
                    ratio(cRecord, to: cNone), Throughput.median(zip(cpu[cRecord], cpu[cNone]).map { $0 / $1 })))
            print(
                String(
                    format: "FleetAuth record on / C record on: %.3f; FleetAuth no record / C no record: %.3f",
                    ratio(0, to: cRecord), ratio(fleetAuthVariants.count - 1, to: cNone)))
        }
        guard !recordOnly else { return }
        print(String(format: "JSON logs / text logs: %.3f (target ≥ %.2f)", ratio(1), Self.jsonLogsRatioTarget))
        print(String(format: "JSON logs with --access-log / text logs: %.3f", ratio(2)))
        print(String(format: "TLS / plain HTTP, keep-alive: %.3f (target ≥ %.2f)", ratio(3), Self.tlsRatioTarget))
    }

    /// For each thread group, the median over the rounds of `on`'s µs a token less `off`'s
    /// (a group missing from a round counts 0), largest first: one line per group.
    static func threadGroupDifferences(_ on: [[String: Double]], _ off: [[String: Double]]) -> String {
        let names = Set(on.flatMap(\.keys) + off.flatMap(\.keys))
        let differences = names.map { name in
            (name, Throughput.median(zip(on, off).map { ($0[name] ?? 0) - ($1[name] ?? 0) }))
        }
        return differences.sorted { $0.1 > $1.1 }.map { name, microseconds in
            "  " + name.padding(toLength: 18, withPad: " ", startingAt: 0) + String(format: "%+7.1f µs", microseconds)
        }.joined(separator: "\n")
    }
}
