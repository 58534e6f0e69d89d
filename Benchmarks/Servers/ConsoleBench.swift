import ArgumentParser
import BrowserDriver
import CommandSupport
import FleetDemo
import FleetTokens
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// `fleetauth-bench console`: what the local Fleet Engine's console costs and how it copes
/// with a city's fleet. Durable location updates per second (in-process HTTP load on
/// keep-alive connections) with no console page open, then with one open on the map and
/// streaming, round after round on the same engine; the ratio of the two is the target
/// (≥ 0.95). And the time the page takes, in headless Chromium, from opening the map to
/// having drawn every vehicle of a fleet of `--vehicles` (fetch, parse and draw).
struct ConsoleBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract:
            "The console: location updates/s with and without a page streaming the map; the map's drawing of a large fleet."
    )

    @Option(help: "Vehicles in the fleet, spread over 45 × 45 km, each drawn on the map.")
    var vehicles = 10_000

    @Option(help: "Vehicles that report their locations during the update runs (each with its own driver token).")
    var reporters = 1_000

    @Option(help: "Concurrent keep-alive connections of the update load.")
    var connections = 32

    @Option(help: "Seconds per update run (after a 1 s warm-up).")
    var seconds = 5

    @Option(help: "Rounds (of a run without and a run with the page); medians are reported.")
    var rounds = 3

    @Flag(help: "Print JSON.")
    var json = false

    /// The ratio the console promises: updates with a page open ÷ without.
    static let target = 0.95

    struct Report: Encodable {
        let vehicles: Int
        let reporters: Int
        let connections: Int
        let withoutPage: [Double]
        let withPage: [Double]
        /// Per round, with ÷ without; then their median.
        let ratios: [Double]
        let medianRatio: Double
        /// Per round, the CPU time Chromium took per second of the run with the page open
        /// (`nil` without `/proc`): what the page's drawing takes from the machine the engine runs on.
        let browserCPUShare: [Double?]
        /// Each opening of the map: milliseconds from the start of its fetch to the last mark drawn.
        let mapDrawMilliseconds: [Double]
        let medianMapDrawMilliseconds: Double
        let marksDrawn: Int
        let failedUpdates: Int

        var text: String {
            func rates(_ values: [Double]) -> String {
                values.map { String(format: "%.0f", $0) }.joined(separator: ", ")
            }
            return """
                console (\(vehicles) vehicles, \(reporters) reporting over \(connections) connections; medians of \(withPage.count) rounds)
                  updates/s, no console page:      \(rates(withoutPage))
                  updates/s, a page streaming:     \(rates(withPage))
                  with ÷ without:                  \(String(format: "%.3f", medianRatio))   (target ≥ \(ConsoleBench.target))
                  Chromium's CPU while streaming:  \(browserCPUShare.map { $0.map { String(format: "%.2f cores", $0) } ?? "?" }.joined(separator: ", "))
                  map of \(marksDrawn) vehicles drawn in:  \(String(format: "%.0f", medianMapDrawMilliseconds)) ms   (\(mapDrawMilliseconds.map { String(format: "%.0f", $0) }.joined(separator: ", ")); target < 1000 ms)
                  failed updates: \(failedUpdates)
                """
        }
    }

    func validate() throws {
        guard vehicles >= reporters, reporters >= connections, connections >= 1, seconds >= 1, rounds >= 1 else {
            throw ValidationError(
                "need --vehicles ≥ --reporters ≥ --connections ≥ 1, and --seconds and --rounds at least 1")
        }
    }

    func run() async throws {
        let report = try await BrowserBench.withFleetAndBrowser { servers, browser in
            try await measure(servers, browser)
        }
        if json {
            try JSONOutput.print(report)
        } else {
            print(report.text)
        }
    }

    private func measure(_ servers: LocalFleet, _ browser: WebDriverSession) async throws -> Report {
        let keys = await servers.tokenServer.keyRing.signingKeys
        guard let serverKey = keys.key(for: .serviceSuperUser), let driverKey = keys.key(for: .driverSDKUser) else {
            throw CommandFailure("the token server has no server or driver key")
        }
        let project = keys.projectID
        let port = await servers.fleetEnginePort
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let report = try await measure(
                project: project, port: port, serverKey: serverKey, driverKey: driverKey, browser, on: group)
            try? await group.shutdownGracefully()
            return report
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private func measure(
        project: String, port: Int, serverKey: ServiceAccountKey, driverKey: ServiceAccountKey,
        _ browser: WebDriverSession, on group: any EventLoopGroup
    ) async throws -> Report {
        try await createFleet(
            project: project, port: port, token: try TokenMinter(key: serverKey).mint(.server).token, on: group)
        let driverMinter = try TokenMinter(key: driverKey, defaultLifetime: .seconds(3600))
        let tokens = try (0..<reporters).map { try driverMinter.mint(.driver(vehicleID: Self.vehicleID($0))).token }

        let console = "http://127.0.0.1:\(port)/console/#map"
        var withoutPage: [Double] = [], withPage: [Double] = [], draws: [Double] = [], marks = 0, failed = 0
        var browserShares: [Double?] = []
        for round in 1...rounds {
            try await browser.navigate(to: "about:blank")
            let (quiet, quietFailed) = try await updates(
                project: project, port: port, tokens: tokens, round: 2 * round, on: group)
            withoutPage.append(quiet)
            try await browser.navigate(to: console)
            let drawn = try await waitForMap(in: browser)
            draws.append(drawn.milliseconds)
            marks = drawn.marks
            let browserBefore = ProcessGroupCPU.seconds(ofProcessesNamed: "chrom")
            let (streamed, streamedFailed) = try await updates(
                project: project, port: port, tokens: tokens, round: 2 * round + 1, on: group)
            browserShares.append(
                ProcessGroupCPU.seconds(ofProcessesNamed: "chrom").flatMap { after in
                    browserBefore.map { (after - $0) / Double(seconds + 1) }
                })
            guard
                try await browser.run("return document.getElementById('live').textContent;", as: String.self) == "live"
            else {
                throw CommandFailure("the console page stopped streaming during the run")
            }
            withPage.append(streamed)
            failed += quietFailed + streamedFailed
            if !json { FileHandle.standardError.write(Data("round \(round)/\(rounds) done\n".utf8)) }
        }
        let ratios = zip(withPage, withoutPage).map { $0 / $1 }
        return Report(
            vehicles: vehicles, reporters: reporters, connections: connections, withoutPage: withoutPage,
            withPage: withPage,
            ratios: ratios, medianRatio: Throughput.median(ratios), browserCPUShare: browserShares,
            mapDrawMilliseconds: draws,
            medianMapDrawMilliseconds: Throughput.median(draws), marksDrawn: marks, failedUpdates: failed)
    }

    static func vehicleID(_ index: Int) -> String { "city-\(index)" }

    /// Creates the fleet, each vehicle online somewhere in a 45 × 45 km square around Berlin.
    private func createFleet(project: String, port: Int, token: String, on group: any EventLoopGroup) async throws {
        let creators = (1...8).last { vehicles.isMultiple(of: $0) } ?? 1
        let tally = try await HTTPLoad.run(
            host: "127.0.0.1", port: port, connections: creators, duration: .seconds(600),
            requestsPerConnection: vehicles / creators, on: group
        ) { connection, n in
            let index = connection + n * creators
            // A fixed scatter: the same fleet every run.
            let latitude = 52.32 + Double((index * 7_919) % 10_000) / 10_000 * 0.405
            let longitude = 13.08 + Double((index * 104_729) % 10_000) / 10_000 * 0.66
            let body = ByteBuffer(
                string:
                    #"{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"},"lastLocation":{"location":{"latitude":\#(latitude),"longitude":\#(longitude)}}}"#
            )
            let uri = "/v1/providers/\(project)/vehicles?vehicleId=\(Self.vehicleID(index))"
            return HTTPLoad.Request(
                head: FleetEngineBench.head(.POST, uri, token: token, length: body.readableBytes), body: body)
        }
        guard tally.succeeded == vehicles else {
            throw CommandFailure("created \(tally.succeeded) of \(vehicles) vehicles (\(tally.firstFailure ?? "?"))")
        }
    }

    /// One run of location updates after a 1 s warm-up: updates/s acknowledged, and failures.
    private func updates(project: String, port: Int, tokens: [String], round: Int, on group: any EventLoopGroup)
        async throws -> (Double, Int)
    {
        let connections = connections, reporters = reporters
        func load(_ seconds: Int) async throws -> HTTPLoad.Tally {
            try await HTTPLoad.run(
                host: "127.0.0.1", port: port, connections: connections, duration: .seconds(Int64(seconds)), on: group
            ) { connection, n in
                // Each connection moves its own vehicles, one after another, each update a metre
                // north (at this rate, 60 km/h or so).
                let index = (connection + n * connections) % reporters
                let latitude = 52.4 + Double(round) / 100 + Double(n * connections / reporters) * 9e-6
                let body = ByteBuffer(
                    string: #"{"lastLocation":{"location":{"latitude":\#(latitude),"longitude":13.4}}}"#)
                let uri = "/v1/providers/\(project)/vehicles/\(Self.vehicleID(index))?updateMask=lastLocation"
                return HTTPLoad.Request(
                    head: FleetEngineBench.head(.PUT, uri, token: tokens[index], length: body.readableBytes), body: body
                )
            }
        }
        _ = try await load(1)
        let tally = try await load(seconds)
        return (Double(tally.succeeded) / Double(seconds), tally.failed)
    }

    /// Waits until the opened map has drawn the fleet; the page's own measure of the time it took.
    private func waitForMap(in browser: WebDriverSession) async throws -> (milliseconds: Double, marks: Int) {
        struct Timings: Decodable { let mapDrawMilliseconds: Double; let marks: Int }
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let timings = try? await browser.run("return window.consoleTimings ?? null;", as: Timings?.self) {
                return (timings.mapDrawMilliseconds, timings.marks)
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw CommandFailure("the console's map was not drawn within a minute")
    }
}
