import ArgumentParser
import BrowserDriver
import CommandSupport
import FleetAuthServerHTTP
import FleetDemo
import Foundation
import Logging
import TokenServer

/// `fleetauth-bench browser-fetcher`: the browser module's cached `authTokenFetcher` call in
/// headless Chromium, beside the floor of any cached async lookup (a `Map` read handed back in
/// a resolved promise) measured in the same page, round by round. The target: a cached call
/// under 5 µs (median).
struct BrowserFetcherBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browser-fetcher",
        abstract:
            "The browser module's cached authTokenFetcher call in headless Chromium, beside a bare cached async lookup."
    )

    @Option(help: "Cached calls per round.")
    var calls = 10_000

    @Option(help: "Rounds (medians are reported).")
    var rounds = 11

    @Flag(help: "Print JSON.")
    var json = false

    /// One round's medians, in microseconds per call.
    struct Round: Codable {
        let fetcher: Double
        let reference: Double
    }

    /// What the run found.
    struct Report: Encodable {
        let calls: Int
        let fetcherMicroseconds: Double
        let referenceMicroseconds: Double
        /// Fetcher ÷ reference: what the module's rules cost beyond the lookup itself.
        let ratio: Double
        let browser: String

        /// The report as a table.
        func text(rounds: Int) -> String {
            """
            browser-fetcher (\(browser), \(calls) cached calls a round, medians of \(rounds) rounds)
              authTokenFetcher, cached:   \(String(format: "%.3f", fetcherMicroseconds)) µs a call   (target < 5 µs)
              Map + resolved promise:     \(String(format: "%.3f", referenceMicroseconds)) µs a call
              fetcher ÷ reference:        \(String(format: "%.2f", ratio))×
            """
        }
    }

    func run() async throws {
        guard calls >= 100, rounds >= 1 else {
            throw ValidationError("--calls must be at least 100 and --rounds at least 1")
        }
        let report = try await BrowserBench.withFleetAndBrowser { servers, browser in
            try await measure(in: browser, page: "http://127.0.0.1:\(await servers.tokenServerPort)/examples/")
        }
        if json {
            try JSONOutput.print(report)
        } else {
            print(report.text(rounds: rounds))
        }
    }

    private func measure(in browser: WebDriverSession, page: String) async throws -> Report {
        try await browser.navigate(to: page)
        let browserVersion = try await browser.run(
            "return navigator.userAgent.match(/Chrome\\/[\\d.]+/)?.[0] ?? navigator.userAgent;", as: String.self)
        var measured: [Round] = []
        for round in 1...rounds {
            measured.append(try await browser.run(Self.script, [calls], as: Round.self))
            if !json { FileHandle.standardError.write(Data("round \(round)/\(rounds) done\n".utf8)) }
        }
        let fetcher = Throughput.median(measured.map(\.fetcher))
        let reference = Throughput.median(measured.map(\.reference))
        return Report(
            calls: calls, fetcherMicroseconds: fetcher, referenceMicroseconds: reference, ratio: fetcher / reference,
            browser: browserVersion)
    }

    /// One round in the page: a fetcher whose one network answer is a canned token (only
    /// cache hits are measured), warmed up, then `calls` awaited calls to it and as many to the
    /// reference, each run timed whole (the page's clock ticks in 100 µs steps) and given per call.
    private static let script = """
        const calls = arguments[0];
        const { createAuthTokenFetcher } = await import("/sdk/fleetauth.js");
        const canned = () => Promise.resolve(new Response(JSON.stringify({ token: "cached.token.value", expiresInSeconds: 3600 })));
        const fetcher = createAuthTokenFetcher({ baseURL: location.origin, kind: "consumer", authorize: async () => "Bearer x", fetch: canned });
        const held = new Map([["trip-1", { token: "cached.token.value", expiresInSeconds: 3600 }]]);
        const reference = (options) => Promise.resolve(held.get(options.context.tripId));
        const options = { context: { tripId: "trip-1" } };
        for (let i = 0; i < 2000; i += 1) { await fetcher(options); await reference(options); }
        let start = performance.now();
        for (let i = 0; i < calls; i += 1) await fetcher(options);
        const fetcherTime = performance.now() - start;
        start = performance.now();
        for (let i = 0; i < calls; i += 1) await reference(options);
        const referenceTime = performance.now() - start;
        return { fetcher: fetcherTime * 1000 / calls, reference: referenceTime * 1000 / calls };
        """
}
