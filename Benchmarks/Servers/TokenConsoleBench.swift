import ArgumentParser
import BrowserDriver
import CommandSupport
import FleetAuthServerHTTP
import Foundation
import Logging
import TokenServer

/// `fleetauth-bench token-console`: what an open console costs the token server. One
/// `fleetauth token-server` process (console on, as on loopback); `wrk` rotates over logged-in
/// drivers' token requests with no page open, and with the console open in headless Chromium
/// on its live view (the live figures streaming every second) and on its record view (which
/// also reads the record's newest page again as records are written), round after round, the
/// order alternating; the medians of the rounds' with ÷ without ratios are the target (≥ 0.95).
struct TokenConsoleBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token-console",
        abstract: "Token server: tokens/s with and without its console open and streaming the live figures."
    )

    @Option(help: "Concurrent keep-alive connections.")
    var connections = 32

    @Option(help: "Drivers, each logged in and assigned to a vehicle of its own.")
    var vehicles = 200

    @Option(help: "Seconds per measured run (after a 1 s warm-up).")
    var seconds = 5

    @Option(help: "Rounds (of a run without and a run with the page); medians are reported.")
    var rounds = 3

    @Option(help: "Threads of wrk.")
    var clientThreads = 1

    /// The promise (docs/performance.md): tokens/s with a page open ÷ without.
    static let target = 0.95

    func run() async throws {
        let folder = try BenchFolder.create()
        defer { BenchFolder.remove(folder) }
        var logger = Logger(label: "bench", factory: DeferredMetadataLogHandler.standardError)
        logger.logLevel = .warning
        let dataDirectory = folder + "/data"
        let configuration = TokenServerConfiguration(
            dataDirectory: dataDirectory, databaseURL: nil, projectID: "bench-project",
            options: TokenServerOptions(bcryptCost: 4))
        let fleet = try await BenchFleet.create(count: vehicles, configuration: configuration, logger: logger)
        let requests = folder + "/requests"
        try fleet.writeRequests(to: requests)
        let server = try await ServerProcess.start(
            name: "FleetAuth",
            arguments: [
                BenchExecutables.fleetAuth, "token-server", "--data-dir", dataDirectory, "--port", "0", "--project",
                "bench-project",
                "--token-requests-per-minute", "0",
            ],
            port: TokenServerBench.fleetAuthPort)
        defer { server.stop() }
        let adminKey = try String(contentsOfFile: configuration.adminKeyPath, encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let chromium = try await HeadlessChromium.start()
        do {
            try await measure(
                port: server.port, adminKey: adminKey, requests: requests, folder: folder, browser: chromium.session)
        } catch {
            await chromium.stop()
            throw error
        }
        await chromium.stop()
    }

    private func measure(port: Int, adminKey: String, requests: String, folder: String, browser: WebDriverSession)
        async throws
    {
        func tokensPerSecond(seconds: Int) async throws -> Double {
            let run = try await Wrk.run(
                url: "http://127.0.0.1:\(port)", connections: connections, threads: clientThreads, seconds: seconds,
                script: "token-requests.lua", arguments: [requests], folder: folder)
            guard run.failed == 0 else { throw CommandFailure("\(run.failed) token requests failed") }
            return Double(run.succeeded) / run.seconds
        }
        _ = try await tokensPerSecond(seconds: 1)
        // Each round: no page, the live view, the record view (its newest page read again as
        // records are written), in an order that alternates, so that the machine's drift within
        // a round favours none.
        let views: [String?] = [nil, "live", "record"]
        var rates = Array(repeating: [Double](), count: views.count)
        var browserShares = Array(repeating: [String](), count: views.count)
        for round in 1...rounds {
            for index in round % 2 == 1 ? Array(views.indices) : views.indices.reversed() {
                guard let view = views[index] else {
                    try await browser.navigate(to: "about:blank")
                    rates[index].append(try await tokensPerSecond(seconds: seconds))
                    continue
                }
                try await openConsole(view: view, port: port, adminKey: adminKey, in: browser)
                let browserBefore = ProcessGroupCPU.seconds(ofProcessesNamed: "chrom")
                rates[index].append(try await tokensPerSecond(seconds: seconds))
                let share = ProcessGroupCPU.seconds(ofProcessesNamed: "chrom").flatMap { after in
                    browserBefore.map { (after - $0) / Double(seconds) }
                }
                browserShares[index].append(share.map { String(format: "%.2f", $0) } ?? "?")
                guard
                    try await browser.run("return document.getElementById('live').textContent;", as: String.self)
                        == "live"
                else {
                    throw CommandFailure("the console stopped streaming during the run")
                }
            }
            FileHandle.standardError.write(
                Data(
                    String(
                        format:
                            "round %d/%d: %.0f tokens/s without a page, %.0f with the live view, %.0f with the record view\n",
                        round, rounds, rates[0].last!, rates[1].last!, rates[2].last!
                    ).utf8))
        }
        func list(_ values: [Double], _ format: String = "%.0f") -> String {
            values.map { String(format: format, $0) }.joined(separator: ", ")
        }
        let live = zip(rates[1], rates[0]).map { $0 / $1 }, record = zip(rates[2], rates[0]).map { $0 / $1 }
        print(
            """
            token server console (\(vehicles) drivers over \(connections) connections; \(rounds) rounds)
              tokens/s, no console page:            \(list(rates[0]))
              tokens/s, the live view open:         \(list(rates[1]))
              tokens/s, the record view open:       \(list(rates[2]))
              live ÷ none, per round:               \(list(live, "%.3f"))   median \(String(format: "%.3f", Throughput.median(live)))   (target ≥ \(Self.target))
              record ÷ none, per round:             \(list(record, "%.3f"))   median \(String(format: "%.3f", Throughput.median(record)))   (target ≥ \(Self.target))
              Chromium's CPU, live / record view:   \(browserShares[1].joined(separator: ", ")) / \(browserShares[2].joined(separator: ", ")) cores
            """)
    }

    /// Opens the console at `view`, gives it the admin key, and waits until it streams.
    private func openConsole(view: String, port: Int, adminKey: String, in browser: WebDriverSession) async throws {
        try await browser.navigate(to: "about:blank")
        try await browser.navigate(to: "http://127.0.0.1:\(port)/console/#\(view)")
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if try await browser.run("return document.body.dataset.ready ?? null;", as: String?.self) == "true" {
                return
            }
            _ = try await browser.execute(
                """
                const form = document.getElementById('key-form');
                if (form && !form.hidden) { form.elements.key.value = arguments[0]; form.requestSubmit(); }
                """, [adminKey])
            try await Task.sleep(for: .milliseconds(100))
        }
        throw CommandFailure("the console did not open within 30 s")
    }
}
