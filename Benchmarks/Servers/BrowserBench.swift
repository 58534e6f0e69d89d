import BrowserDriver
import FleetDemo
import Foundation
import Logging
import TokenServer

/// What the browser benchmarks run in: both servers (``LocalFleet``, the engine's console open
/// on loopback) in a temporary folder, and headless Chromium; both stopped however the
/// measurement ends.
enum BrowserBench {
    /// Runs `body` with the servers and a browser session whose scripts may take a minute.
    static func withFleetAndBrowser<Result>(_ body: (LocalFleet, WebDriverSession) async throws -> Result) async throws
        -> Result
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fleetauth-bench-browser-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        let servers = try await LocalFleet.start(
            dataDirectory: folder, project: "bench-project", options: TokenServerOptions(servesExamples: true),
            keyless: false, logger: logger)
        let chromium: HeadlessChromium
        do {
            chromium = try await HeadlessChromium.start()
            try await chromium.session.setScriptTimeout(.seconds(60))
        } catch {
            await servers.stop()
            throw error
        }
        do {
            let result = try await body(servers, chromium.session)
            await chromium.stop()
            await servers.stop()
            return result
        } catch {
            await chromium.stop()
            await servers.stop()
            throw error
        }
    }
}
