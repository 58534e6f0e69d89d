import CommandSupport
import Foundation

/// Debian's Chromium and its chromedriver, headless and offline: a fresh profile each time, no
/// background networking, no first-run pages. One driver process and one browser per instance.
package final class HeadlessChromium: Sendable {
    /// Where Debian's `chromium` and `chromium-driver` packages put their programs.
    package static let browserPath = "/usr/bin/chromium"
    /// chromedriver's path.
    package static let driverPath = "/usr/bin/chromedriver"

    /// Whether both programs are installed (`.ci/run` installs them).
    package static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: browserPath)
            && FileManager.default.isExecutableFile(atPath: driverPath)
    }

    /// The browser session.
    package let session: WebDriverSession
    private let driver: ChildProcess
    private let profile: URL

    private init(session: WebDriverSession, driver: ChildProcess, profile: URL) {
        self.session = session
        self.driver = driver
        self.profile = profile
    }

    /// Starts chromedriver on a free loopback port and opens a headless browser session.
    package static func start() async throws -> HeadlessChromium {
        guard isInstalled else {
            throw WebDriverError("Chromium is not installed: apt-get install chromium chromium-driver")
        }
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fleetauth-chromium-\(UUID().uuidString)")
        let driver = try ChildProcess([driverPath, "--port=0", "--allowed-ips=127.0.0.1"])
        do {
            let port = try await driver.firstLine { line -> Int? in
                // "ChromeDriver was started successfully on port 37123."
                guard line.contains("started successfully"), let range = line.firstRange(of: /port (\d+)/) else {
                    return nil
                }
                return Int(line[range].dropFirst("port ".count))
            }
            let driverURL = URL(string: "http://127.0.0.1:\(port)")!
            let session = try await WebDriverSession.open(
                driverURL: driverURL,
                capabilities: [
                    "browserName": "chrome",
                    "goog:loggingPrefs": ["browser": "ALL"],
                    "goog:chromeOptions": [
                        "binary": browserPath,
                        "args": [
                            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--no-first-run",
                            "--no-default-browser-check", "--disable-background-networking",
                            "--disable-component-update", "--disable-sync",
                            "--disable-default-apps", "--disable-extensions", "--metrics-recording-only",
                            "--password-store=basic",
                            "--user-data-dir=\(profile.path)", "--window-size=1280,900",
                        ],
                    ] as [String: any Sendable],
                ])
            return HeadlessChromium(session: session, driver: driver, profile: profile)
        } catch {
            driver.stop()
            await Self.endBrowsers(using: profile)
            throw error
        }
    }

    /// Closes the browser, stops the driver and removes the profile.
    package func stop() async {
        await session.close()
        driver.stop()
        await Self.endBrowsers(using: profile)
    }

    /// Ends every browser process still running on `profile` (a session the driver opened but
    /// never answered for, or one whose driver was stopped first, leaves Chromium running), and
    /// removes the profile.
    private static func endBrowsers(using profile: URL) async {
        _ = try? await ChildProcess.run(
            ["pkill", "-KILL", "-f", "user-data-dir=\(profile.path)"], timeout: .seconds(30))
        try? FileManager.default.removeItem(at: profile)
    }
}
