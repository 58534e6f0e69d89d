import AsyncHTTPClient
import BrowserDriver
import FleetAuthServerHTTP
import Foundation
import Logging
import NIOCore
import TestSupport
import Testing
import TokenServer

/// A token server with its console (SQLite in a folder of its own, the test keys, every log
/// line recorded) and headless Chromium: what an operator opens.
struct TokenConsoleScene: Sendable {
    let browser: WebDriverSession
    let server: TokenServer
    /// `http://127.0.0.1:PORT`.
    let address: String
    /// The admin key, which the page asks for.
    let adminKey: String
    /// Everything the server logged.
    let logs: LogRecorder

    /// The console at `view` (`#keys`), with `query` (`?outcome=refused`).
    func consoleURL(_ query: String = "", view: String = "") -> String {
        "\(address)/console/\(query)\(view)"
    }

    /// Opens the console, gives it the admin key when it asks, and waits until it has loaded.
    func open(_ query: String = "", view: String = "") async throws {
        try await browser.navigate(to: consoleURL(query, view: view))
        try await waitUntil("the page is up") {
            try await browser.execute("return document.getElementById('key-form') != null") == "true"
        }
        if try await browser.execute("return document.getElementById('key-form').hidden") == "false" {
            _ = try await browser.execute(
                "const form = document.getElementById('key-form'); form.elements.key.value = arguments[0]; form.requestSubmit();",
                [adminKey])
        }
        try await waitUntilReady()
    }

    /// Loads the page again, as a person's reload does, and waits until it has loaded.
    func reload() async throws {
        _ = try await browser.execute("delete document.body.dataset.ready; location.reload();")
        try await waitUntilReady()
    }

    /// Waits until the page has loaded its data once since it was opened.
    func waitUntilReady() async throws {
        try await browser.waitUntilConsoleReady()
    }

    /// Submits the page's form `id` with `values` by box name (a `select` takes an option's value).
    func submit(_ id: String, _ values: [String: String]) async throws {
        _ = try await browser.execute(
            #"""
            const [id, values] = arguments;
            const form = document.getElementById(id);
            for (const [name, value] of Object.entries(values)) form.elements[name].value = value;
            form.requestSubmit();
            """#, [id, values])
    }

    /// Clicks the element `selector` finds, saying yes to any confirmation it asks.
    func click(_ selector: String) async throws {
        _ = try await browser.execute(
            "window.confirm = () => true; document.querySelector(arguments[0]).click();", [selector])
    }

    /// Sends `method path` to the server as an app does, with `bearer` and a JSON `body`;
    /// the status and the JSON answer.
    func send(_ method: String, _ path: String, bearer: String? = nil, body: String? = nil) async throws -> (
        status: Int, json: [String: Any]
    ) {
        var request = HTTPClientRequest(url: address + path)
        request.method = .init(rawValue: method)
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        let json = (try? JSONSerialization.jsonObject(with: Data(buffer: bytes))) as? [String: Any] ?? [:]
        return (Int(response.status.code), json)
    }

    /// Logs `username` in with `password`; the session token, or `nil` when refused.
    func logIn(_ username: String, password: String) async throws -> String? {
        try await send("POST", "/v1/sessions", body: #"{"username":"\#(username)","password":"\#(password)"}"#).json[
            "sessionToken"] as? String
    }

    /// Runs `body` in a new scene whose server has `options` (the console on, cheap bcrypt),
    /// and takes it down however `body` ends.
    static func run(options: TokenServerOptions = .init(), _ body: (TokenConsoleScene) async throws -> Void)
        async throws
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("token-console-\(UUID().uuidString)")
            .path
        var options = options
        options.bcryptCost = 4
        options.servesConsole = true
        let configuration = TokenServerConfiguration(
            dataDirectory: folder, projectID: TestKeys.project, options: options)
        try TestKeys.install(in: configuration.keysDirectory)
        let logs = LogRecorder()
        let server = try await TokenServer.open(configuration, logger: logs.logger)
        let running: RunningService
        do {
            running = try await RunningService.start(logger: logs.logger) { onRunning in
                server.application(port: 0, onRunning: onRunning)
            }
        } catch {
            await server.shutdown()
            throw error
        }
        var chromium: HeadlessChromium?
        do {
            let adminKey = try String(contentsOfFile: configuration.adminKeyPath, encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines)
            chromium = try await HeadlessChromium.start()
            try await chromium!.session.setScriptTimeout(.seconds(60))
            try await body(
                TokenConsoleScene(
                    browser: chromium!.session, server: server, address: "http://127.0.0.1:\(running.port)",
                    adminKey: adminKey, logs: logs))
        } catch {
            await chromium?.stop()
            await running.stop()
            await server.shutdown()
            throw error
        }
        await chromium?.stop()
        await running.stop()
        await server.shutdown()
    }
}
