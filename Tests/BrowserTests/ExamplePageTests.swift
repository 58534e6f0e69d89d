import BrowserDriver
import Foundation
import TestSupport
import Testing

extension BrowserSuite {
    /// The example rider page in headless Chromium: a page on its own origin (A) logs in to the
    /// token server (B), gets consumer tokens through `/sdk/fleetauth.js` and reads its trip from
    /// the local Fleet Engine (C).
    @Suite("Example page, three origins")
    struct ExamplePageTests {
        /// The page's address with its settings in the query.
        private func pageURL(_ scene: BrowserScene, trip: String) -> String {
            var address = URLComponents(string: "\(scene.page.origin)/examples/rider.html")!
            address.queryItems = [
                URLQueryItem(name: "tokenServer", value: scene.fleet.tokenServer),
                URLQueryItem(name: "fleetEngine", value: scene.fleet.fleetEngine),
                URLQueryItem(name: "provider", value: TestKeys.project),
                URLQueryItem(name: "username", value: BrowserScene.rider),
                URLQueryItem(name: "tripId", value: trip),
                URLQueryItem(name: "poll", value: "200"),
            ]
            return address.url!.absoluteString
        }

        /// Types the password and submits, as the rider would.
        private func logIn(_ scene: BrowserScene) async throws {
            try await waitUntil("the page's script has run") {
                try await scene.browser.execute("return document.body.dataset.ready ?? null") == #""true""#
            }
            _ = try await scene.browser.execute(
                "document.querySelector('[name=password]').value = arguments[0]; document.getElementById('login').requestSubmit();",
                [BrowserFleet.password])
        }

        @Test(
            "The page follows its trip and its vehicle as it moves, on one token, and no token reaches the DOM, the console or a log"
        )
        func followsTheTrip() async throws {
            // Tokens that outlive the test, however slow the machine: one token for every read.
            try await BrowserScene.run(tokenLifetime: .seconds(600)) { scene in
                let browser = scene.browser
                try await browser.navigate(to: pageURL(scene, trip: BrowserScene.trip))
                try await logIn(scene)
                try await waitUntil("the page shows the trip's vehicle") {
                    try await browser.text(of: "#vehicle-id") == BrowserScene.vehicle
                }
                #expect(try await browser.text(of: "#trip-status") == "NEW")
                #expect(try await browser.text(of: "#error") == "")

                try await scene.fleet.move(BrowserScene.vehicle, to: .init(latitude: 52.55, longitude: 13.405))
                try await waitUntil("the page shows the vehicle's new position") {
                    let lat = try await browser.execute(
                        "return document.getElementById('vehicle-position').dataset.lat ?? ''")
                    return abs((Double(lat.trimmingCharacters(in: .init(charactersIn: "\""))) ?? 0) - 52.55) < 0.006
                }
                // Many reads, one token: the module reuses it.
                #expect(scene.fleet.issuedTokens("consumer") == 1)

                let page = try await browser.pageSource()
                let console = try await browser.consoleMessages().joined(separator: "\n")
                // Every Fleet Engine token starts with eyJ (its header's `{"`); sessions with fas_.
                for secret in ["eyJ", "fas_"] {
                    #expect(!page.contains(secret), "the DOM holds \(secret)…")
                    #expect(!console.contains(secret), "the console holds \(secret)…")
                    #expect(!scene.fleet.logs.text.contains(secret), "a server's log holds \(secret)…")
                }
            }
        }

        @Test(
            "Another trip's token is refused by the token server, and a trip token used for another trip by Fleet Engine; the page shows each 403's reason"
        )
        func anotherTripIsRefused() async throws {
            try await BrowserScene.run { scene in
                let browser = scene.browser
                try await browser.navigate(to: pageURL(scene, trip: BrowserScene.otherTrip))
                try await logIn(scene)
                try await waitUntil("the page shows an error") { try await browser.text(of: "#error") != "" }
                let shown = try await browser.text(of: "#error") ?? ""
                #expect(shown.contains("the token server refused"))
                #expect(
                    shown.contains(#"account "rider-1" is not assigned to trip trip-2"#)
                        || shown.contains("not assigned"), "\(shown)")

                struct Refusal: Decodable { let status: Int; let message: String }
                let refusal = try await browser.run(
                    scene.prelude + """
                        const fetcher = module.createAuthTokenFetcher({ baseURL: tokenServer, kind: "consumer", authorize: async () => `Bearer ${session}` });
                        const { token } = await fetcher({ context: { tripId: "trip-1" } });
                        const response = await fetch(`${fleetEngine}/v1/providers/\(TestKeys.project)/trips/trip-2`, { headers: { Authorization: `Bearer ${token}` } });
                        return { status: response.status, message: (await response.json()).error.message };
                        """, as: Refusal.self)
                #expect(refusal.status == 403)
                #expect(refusal.message.contains("trip"), "\(refusal.message)")
            }
        }

        @Test(
            "A page of an origin not allowed is blocked by the browser, sees the failure, and the token server counts it"
        )
        func disallowedOriginIsBlocked() async throws {
            try await BrowserScene.run { scene in
                let stranger = try await StaticOrigin.start()
                defer { Task { await stranger.stop() } }
                try await scene.browser.navigate(to: "\(stranger.origin)/blank.html")
                struct Outcome: Decodable { let login: String; let token: String }
                let outcome = try await scene.browser.run(
                    """
                    const tokenServer = \(BrowserScene.quoted(scene.fleet.tokenServer));
                    const module = await import(`${tokenServer}/sdk/fleetauth.js`);
                    let login = "answered";
                    try {
                      await fetch(`${tokenServer}/v1/sessions`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
                    } catch (error) { login = `${error.name}: ${error.message}`; }
                    const fetcher = module.createAuthTokenFetcher({
                      baseURL: tokenServer, kind: "consumer", authorize: async () => "Bearer fas_not-a-session", initialBackoff: 10,
                    });
                    let token = "answered";
                    try { await fetcher({ context: { tripId: "trip-1" } }); } catch (error) { token = error.message; }
                    return { login, token };
                    """, as: Outcome.self)
                #expect(outcome.login.hasPrefix("TypeError"), "\(outcome.login)")
                #expect(outcome.token.contains("could not be reached"), "\(outcome.token)")
                // The login's preflight and the fetcher's three attempts' preflights.
                #expect(scene.fleet.refusedOrigins >= 4, "\(scene.fleet.refusedOrigins)")
                #expect(scene.fleet.issuedTokens("consumer") == 0)
            }
        }
    }
}
