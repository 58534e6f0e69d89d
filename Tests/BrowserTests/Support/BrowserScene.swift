import BrowserDriver
import FleetEngineClient
import Foundation
import TestSupport
import Testing

/// What a browser test runs in: headless Chromium, a page origin of its own, and both servers
/// allowing that origin, with one rider enrolled (`rider-1` on `trip-1`, on `vehicle-1` in
/// Berlin) and a second trip (`trip-2`) of someone else's.
struct BrowserScene: Sendable {
    let browser: WebDriverSession
    let page: StaticOrigin
    let fleet: BrowserFleet

    static let rider = "rider-1"
    static let trip = "trip-1"
    static let vehicle = "vehicle-1"
    static let otherTrip = "trip-2"
    static let berlin = LatLng(latitude: 52.52, longitude: 13.405)

    /// Runs `body` in a new scene, and takes the scene down however `body` ends.
    static func run(tokenLifetime: Duration = .seconds(30), _ body: (BrowserScene) async throws -> Void) async throws {
        let page = try await StaticOrigin.start()
        let fleet: BrowserFleet
        do {
            fleet = try await BrowserFleet.start(allowing: [page.origin], tokenLifetime: tokenLifetime)
        } catch {
            await page.stop()
            throw error
        }
        var chromium: HeadlessChromium?
        do {
            try await fleet.enroll(rider: rider, trip: trip, vehicle: vehicle, at: berlin)
            try await fleet.enroll(rider: "rider-2", trip: otherTrip, vehicle: "vehicle-2", at: berlin)
            chromium = try await HeadlessChromium.start()
            try await chromium!.session.setScriptTimeout(.seconds(60))
            try await body(BrowserScene(browser: chromium!.session, page: page, fleet: fleet))
        } catch {
            await chromium?.stop()
            await fleet.stop()
            await page.stop()
            throw error
        }
        await chromium?.stop()
        await fleet.stop()
        await page.stop()
    }

    /// Opens the page origin's empty page, where scripts import the module from the token server.
    func openBlankPage() async throws {
        try await browser.navigate(to: "\(page.origin)/blank.html")
    }

    /// The lines a page script starts with: the module imported from the token server, and
    /// `session`, rider-1's session token, from a login made by the page.
    var prelude: String {
        """
        const tokenServer = \(Self.quoted(fleet.tokenServer));
        const fleetEngine = \(Self.quoted(fleet.fleetEngine));
        const module = await import(`${tokenServer}/sdk/fleetauth.js`);
        const login = await fetch(`${tokenServer}/v1/sessions`, {
          method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ username: \(Self.quoted(Self.rider)), password: \(Self.quoted(BrowserFleet.password)) }),
        });
        const session = (await login.json()).sessionToken;
        """
    }

    /// `text` as a JavaScript string literal.
    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }
}

/// Whether the browser suites can run here: Chromium installed, or CI (which installs it, and
/// where a missing browser must fail rather than skip).
let browserAvailable = HeadlessChromium.isInstalled || ProcessInfo.processInfo.environment["CI"] != nil
