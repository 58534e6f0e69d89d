import BrowserDriver
import CommandSupport
import Foundation
import TestSupport
import Testing
import TokenServer

extension BrowserSuite {
    /// The token server's console at `/console/`, in headless Chromium: every action goes
    /// through the admin API, and what it changes is what apps then meet.
    @Suite("Token server console")
    struct TokenConsoleTests {
        private static let password = "a-password-for-dana"

        /// Creates `username` (a driver with ``password``) through the admin API.
        private func createDriver(_ username: String, in scene: TokenConsoleScene) async throws {
            let created = try await scene.send(
                "POST", "/v1/admin/accounts", bearer: scene.adminKey,
                body: #"{"username":"\#(username)","password":"\#(Self.password)","role":"driver"}"#)
            try #require(created.status == 201)
        }

        @Test("An account made in the page can log in; its password and the admin key stay out of the page")
        func accountMadeInThePage() async throws {
            try await TokenConsoleScene.run { scene in
                try await scene.open(view: "#accounts")
                try await scene.submit(
                    "create-account", ["username": "dana", "role": "delivery-driver", "password": Self.password])
                try await waitUntil("the account is listed") {
                    try await scene.browser.attribute("[data-account=dana]", "data-role") == "delivery-driver"
                }
                #expect(
                    try await scene.browser.execute(
                        "return document.getElementById('create-account').elements.password.value") == #""""#)
                let session = try await scene.logIn("dana", password: Self.password)
                #expect(session != nil)
                try await scene.reload()
                try await waitUntil("the session is counted") {
                    try await scene.browser.attribute("[data-account=dana] [data-sessions]", "data-sessions") == "1"
                }
                // Ending its sessions in the page refuses the session at once.
                try await scene.click("[data-account=dana] [data-action=end-sessions]")
                try await waitUntil("no session is left") {
                    try await scene.browser.attribute("[data-account=dana] [data-sessions]", "data-sessions") == "0"
                }
                #expect(try await scene.send("GET", "/v1/tokens/fleet-reader", bearer: session).status == 401)
                try await scene.click("[data-account=dana] [data-action=delete]")
                try await waitUntil("the account is gone") { try await scene.browser.count("[data-account=dana]") == 0 }
                #expect(try await scene.logIn("dana", password: Self.password) == nil)
                let page = try await scene.browser.pageSource()
                for secret in [Self.password, scene.adminKey, session ?? "-"] { #expect(!page.contains(secret)) }
            }
        }

        @Test(
            "An assignment made in the page lets its driver get a token; removing it in the page refuses the next one")
        func assignmentsInThePage() async throws {
            try await TokenConsoleScene.run { scene in
                try await createDriver("ann", in: scene)
                let session = try #require(try await scene.logIn("ann", password: Self.password))
                #expect(try await scene.send("GET", "/v1/tokens/driver/v-1", bearer: session).status == 403)
                try await scene.open(view: "#assignments")
                try await scene.submit("assign", ["kind": "vehicle", "resourceId": "v-1", "username": "ann"])
                let row = "[data-assignment='vehicle/v-1']"
                try await waitUntil("the assignment is listed") {
                    try await scene.browser.attribute(row, "data-account") == "ann"
                }
                #expect(try await scene.browser.attribute(row, "data-resource") == "v-1")
                #expect(try await scene.send("GET", "/v1/tokens/driver/v-1", bearer: session).status == 200)
                try await scene.click("\(row) [data-action=unassign]")
                try await waitUntil("the assignment is gone") { try await scene.browser.count(row) == 0 }
                #expect(try await scene.send("GET", "/v1/tokens/driver/v-1", bearer: session).status == 403)
            }
        }

        @Test(
            "A rotation in the page shows two driver keys, the new one signing; then, once the old one's tokens expired, one"
        )
        func rotationInThePage() async throws {
            // Two-second tokens and a one-second overlap: a replaced key retires three seconds later.
            try await TokenConsoleScene.run(
                options: TokenServerOptions(tokenLifetime: .seconds(2), keyOverlap: .seconds(1))
            ) { scene in
                try await scene.open(view: "#keys")
                let driverKeys = "#key-table tr[data-role=driver]"
                #expect(try await scene.browser.count(driverKeys) == 1)
                let first = try #require(
                    try await scene.browser.attribute("\(driverKeys)[data-state=signing]", "data-key-id"))
                try await scene.click("[data-rotate=driver]")
                try await waitUntil("two driver keys are shown") { try await scene.browser.count(driverKeys) == 2 }
                #expect(
                    try await scene.browser.attribute("\(driverKeys)[data-key-id='\(first)']", "data-state")
                        == "retiring")
                let second = try #require(
                    try await scene.browser.attribute("\(driverKeys)[data-state=signing]", "data-key-id"))
                #expect(second != first)
                try await waitUntil("the old key retired", timeout: .seconds(15)) {
                    try await scene.browser.attribute("\(driverKeys)[data-key-id='\(first)']", "data-state")
                        == "retired"
                }
                #expect(try await scene.browser.count("\(driverKeys):not([data-state=retired])") == 1)
            }
        }

        @Test(
            "A refused token request is in the record view within 2 s (the best of up to three: a busy machine may hold up one); a filter survives a reload; an account's records load when asked"
        )
        func recordView() async throws {
            try await TokenConsoleScene.run { scene in
                try await createDriver("ann", in: scene)
                let session = try #require(try await scene.logIn("ann", password: Self.password))
                try await scene.open(view: "#record")
                var fastest = Duration.seconds(60)
                for attempt in 1...3 where fastest >= .seconds(2) {
                    let refused = "#record-table tr[data-outcome=refused]"
                    let before = try await scene.browser.count(refused)
                    #expect(
                        try await scene.send("GET", "/v1/tokens/driver/v-\(attempt)", bearer: session).status == 403)
                    let sent = ContinuousClock.now
                    try await waitUntil("the refusal is shown") { try await scene.browser.count(refused) > before }
                    fastest = min(fastest, ContinuousClock.now - sent)
                }
                #expect(fastest < .seconds(2), "the fastest of the refusals showed after \(fastest)")
                #expect(try await scene.send("GET", "/v1/tokens/driver/v-9", bearer: session).status == 403)
                try await scene.submit(
                    "record-filters", ["resourceKind": "vehicle", "resource": "v-9", "outcome": "refused"])
                try await waitUntil("the address holds the filter") {
                    try await scene.browser.execute("return location.search").contains("resource=v-9")
                }
                try await waitUntil("the table is filtered") {
                    try await scene.browser.count("#record-table tbody tr") == 1
                }
                try await scene.reload()
                #expect(try await scene.browser.execute("return location.search").contains("outcome=refused"))
                #expect(
                    try await scene.browser.execute(
                        "return document.getElementById('record-filters').elements.resource.value") == #""v-9""#)
                #expect(try await scene.browser.count("#record-table tbody tr") == 1)
                #expect(try await scene.browser.attribute("#record-table tbody tr", "data-outcome") == "refused")
                #expect(
                    try await scene.browser.text(of: "#record-table tbody tr .verdict")?.contains(
                        "refused: not_assigned") == true)

                // An account's records alone are not live (the server reads the record through for
                // them): a new refusal shows once "Newest" is pressed.
                try await scene.submit("record-filters", ["resource": "", "account": "ann", "outcome": "refused"])
                try await waitUntil("the table holds ann's refusals") {
                    let search = try await scene.browser.execute("return location.search")
                    let rows = try await scene.browser.count("#record-table tbody tr")
                    return search.contains("account=ann") && rows >= 2
                }
                let shown = try await scene.browser.count("#record-table tbody tr")
                #expect(try await scene.send("GET", "/v1/tokens/driver/v-10", bearer: session).status == 403)
                try await Task.sleep(for: .milliseconds(2_500))
                #expect(try await scene.browser.count("#record-table tbody tr") == shown, "an account's view reloaded")
                try await scene.click("#record-newest")
                try await waitUntil("the new refusal shows once asked") {
                    try await scene.browser.count("#record-table tbody tr") == shown + 1
                }
            }
        }

        @Test(
            "The live view shows tokens/s by kind and readiness; no token, session, password or key reaches the DOM, the console log, the stream or the server's log"
        )
        func liveAndSecrets() async throws {
            try await TokenConsoleScene.run { scene in
                try await createDriver("ann", in: scene)
                _ = try await scene.send(
                    "PUT", "/v1/admin/vehicles/v-1/driver", bearer: scene.adminKey, body: #"{"username":"ann"}"#)
                let session = try #require(try await scene.logIn("ann", password: Self.password))
                try await scene.open(view: "#live")
                #expect(try await scene.browser.attribute("#readiness", "data-ready") == "true")
                var tokens: [String] = []
                let started = ContinuousClock.now
                // Tokens keep coming until the page shows a rate for driver tokens.
                while try await scene.browser.count("#issued-rates tr[data-kind=driver]") == 0,
                    ContinuousClock.now - started < .seconds(15)
                {
                    let answer = try await scene.send("GET", "/v1/tokens/driver/v-1", bearer: session)
                    tokens += [answer.json["token"] as? String].compactMap { $0 }
                    try await Task.sleep(for: .milliseconds(200))
                }
                #expect(try await scene.browser.count("#issued-rates tr[data-kind=driver]") == 1)
                #expect(!tokens.isEmpty)
                // Three events of the stream, the later ones after tokens were handed out.
                let stream = try await scene.browser.run(
                    #"""
                    const response = await fetch("/v1/admin/live", { headers: { Authorization: `Bearer ${sessionStorage.getItem("fleetauth-admin-key")}` } });
                    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
                    let text = "";
                    while ((text.match(/event: figures/g) ?? []).length < 3) text += (await reader.read()).value ?? "";
                    reader.cancel();
                    return text;
                    """#, as: String.self)
                #expect(stream.contains(#""issued":"#) && !stream.contains(#""issued":0,"#))
                // What the page keeps besides the DOM: the boxes' values, localStorage, cookies.
                let kept = try await scene.browser.run(
                    #"""
                    const values = [...document.querySelectorAll("input")].map((input) => input.value).join("\n");
                    return [values, JSON.stringify(localStorage), document.cookie].join("\n");
                    """#)
                #expect(try await scene.browser.execute("return localStorage.length") == "0")
                if let folder = ProcessInfo.processInfo.environment["FLEETAUTH_SCREENSHOTS"] {
                    #expect(try await scene.send("GET", "/v1/tokens/driver/v-2", bearer: session).status == 403)
                    try await scene.browser.navigate(to: scene.consoleURL(view: "#record"))
                    try await waitUntil("the record shows the refusal") {
                        try await scene.browser.count("#record-table tr[data-outcome=refused]") == 1
                    }
                    try await scene.browser.screenshot().write(
                        to: URL(fileURLWithPath: folder).appendingPathComponent("token-console-record.png"))
                }
                let page = try await scene.browser.pageSource()
                let messages = try await scene.browser.consoleMessages().joined(separator: "\n")
                for secret in [scene.adminKey, session, Self.password, "eyJ", "PRIVATE KEY"] + tokens {
                    #expect(!page.contains(secret), "the DOM holds a secret")
                    #expect(!kept.contains(secret), "a box, localStorage or a cookie holds a secret")
                    #expect(!messages.contains(secret), "the console log holds a secret")
                    #expect(!stream.contains(secret), "the stream holds a secret")
                    #expect(!scene.logs.text.contains(secret), "the server's log holds a secret")
                }
            }
        }

        @Test(
            "A server listening beyond loopback has no console unless --console on; with it, the page asks for the admin key"
        )
        func beyondLoopback() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "token-console-cli-\(UUID().uuidString)"
            ).path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let chromium = try await HeadlessChromium.start()
            do {
                for (extra, served) in [([String](), false), (["--console", "on"], true)] {
                    let server = try ChildProcess(
                        [
                            try ChildProcess.fleetauth, "token-server", "--host", "0.0.0.0", "--port", "0",
                            "--bcrypt-cost", "4", "--data-dir", folder,
                        ] + extra,
                        standardError: .discarded)
                    defer { server.kill() }
                    let announced = try await server.output(containing: "console: ")
                    let port = try #require(ChildProcess.ports(of: "0.0.0.0", in: announced).first)
                    try await chromium.session.navigate(to: "http://127.0.0.1:\(port)/console/")
                    if served {
                        try await waitUntil("the page asks for the admin key") {
                            try await chromium.session.execute(
                                "return document.getElementById('key-form')?.hidden ?? null") == "false"
                        }
                    } else {
                        let page = try await chromium.session.pageSource()
                        #expect(
                            page.contains("NOT_FOUND") && !page.contains("FleetAuth token server console"), "\(page)")
                    }
                    server.terminate()
                    _ = try await server.exit(within: .seconds(30))
                }
            } catch {
                await chromium.stop()
                throw error
            }
            await chromium.stop()
        }
    }
}
