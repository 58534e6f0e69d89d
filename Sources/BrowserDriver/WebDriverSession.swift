import CommandSupport
import Foundation

/// A browser session driven over the W3C WebDriver protocol (chromedriver's HTTP API): open a
/// page, run a script in it, read its DOM and its console. What the browser tests and the
/// browser benchmark drive Chromium with, so that the pages and the module are run by a real
/// browser.
package struct WebDriverSession: Sendable {
    /// The driver's address, e.g. `http://127.0.0.1:9515`.
    package let driverURL: URL
    /// The session's id.
    package let id: String

    /// A session opened with `capabilities` on the driver at `driverURL`.
    package static func open(driverURL: URL, capabilities: [String: any Sendable]) async throws -> WebDriverSession {
        let answer = try await WebDriverCall.send(
            "POST", driverURL.appendingPathComponent("session"), body: ["capabilities": ["alwaysMatch": capabilities]])
        guard let value = answer as? [String: Any], let id = value["sessionId"] as? String else {
            throw WebDriverError("the driver opened no session: \(answer ?? "nothing")")
        }
        return WebDriverSession(driverURL: driverURL, id: id)
    }

    /// Opens `url` and waits for its load.
    package func navigate(to url: String) async throws {
        _ = try await call("POST", "url", body: ["url": url])
    }

    /// Runs `script` (a function body; `arguments` holds `args`) and returns what it returns, as
    /// JSON text.
    package func execute(_ script: String, _ args: [any Sendable] = []) async throws -> String {
        try Self.json(try await call("POST", "execute/sync", body: ["script": script, "args": args]))
    }

    /// Runs `body`, an async function body (`arguments` holds `args`), and returns what it
    /// resolves to, as JSON text; a rejection fails with its message.
    package func run(_ body: String, _ args: [any Sendable] = []) async throws -> String {
        let script = """
            const done = arguments[arguments.length - 1];
            (async (...arguments) => { \(body) })(...Array.from(arguments).slice(0, -1))
              .then((value) => done({ ok: value === undefined ? null : value }), (error) => done({ error: String(error?.message ?? error) }));
            """
        let answer = try await call("POST", "execute/async", body: ["script": script, "args": args])
        guard let outcome = answer as? [String: Any] else {
            throw WebDriverError("the script's outcome is not an object")
        }
        if let message = outcome["error"] as? String { throw WebDriverError("the page's script failed: \(message)") }
        return try Self.json(outcome["ok"] ?? NSNull())
    }

    /// Runs `body` as ``run(_:_:)`` does and decodes what it resolves to.
    package func run<Value: Decodable>(_ body: String, _ args: [any Sendable] = [], as type: Value.Type) async throws
        -> Value
    {
        try JSONDecoder().decode(Value.self, from: Data(try await run(body, args).utf8))
    }

    /// The page's DOM as HTML.
    package func pageSource() async throws -> String {
        try await call("GET", "source") as? String ?? ""
    }

    /// The text of the element `selector` finds, or `nil` when there is none.
    package func text(of selector: String) async throws -> String? {
        let value = try await execute(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent : null;", [selector])
        return try JSONDecoder().decode(String?.self, from: Data(value.utf8))
    }

    /// The console's messages since the last call (Chromium's `browser` log).
    package func consoleMessages() async throws -> [String] {
        let entries = try await call("POST", "se/log", body: ["type": "browser"]) as? [[String: Any]] ?? []
        return entries.compactMap { $0["message"] as? String }
    }

    /// A PNG of the window as it is drawn now.
    package func screenshot() async throws -> Data {
        guard let encoded = try await call("GET", "screenshot") as? String, let png = Data(base64Encoded: encoded)
        else {
            throw WebDriverError("the driver sent no screenshot")
        }
        return png
    }

    /// Sets the time scripts get for an async script (default 30 s).
    package func setScriptTimeout(_ timeout: Duration) async throws {
        _ = try await call("POST", "timeouts", body: ["script": Int(timeout.components.seconds * 1000)])
    }

    /// Ends the session (and closes its browser).
    package func close() async {
        _ = try? await WebDriverCall.send("DELETE", driverURL.appendingPathComponent("session/\(id)"), body: nil)
    }

    private func call(_ method: String, _ path: String, body: [String: any Sendable]? = nil) async throws -> Any? {
        try await WebDriverCall.send(
            method, driverURL.appendingPathComponent("session/\(id)/\(path)"),
            body: body ?? (method == "POST" ? [:] : nil))
    }

    private static func json(_ value: Any?) throws -> String {
        guard let value, !(value is NSNull) else { return "null" }
        if let string = value as? String { return String(decoding: try JSONEncoder().encode(string), as: UTF8.self) }
        return String(
            decoding: try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]),
            as: UTF8.self)
    }
}

/// A WebDriver request and its answer's `value`, through ``RawHTTP`` (chromedriver writes its
/// header fields without a space after the colon, which URLSession on Linux refuses).
enum WebDriverCall {
    /// How long one read of an answer may wait: longer than any script timeout the tests and the
    /// benchmark set (60 s), so that a hung driver fails the call instead of stalling the suite.
    static let timeoutSeconds = 90

    static func send(_ method: String, _ url: URL, body: [String: any Sendable]?) async throws -> Any? {
        guard let port = url.port else { throw WebDriverError("the driver's address has no port: \(url)") }
        var head = ["\(method) \(url.path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close"]
        var payload = ""
        if let body {
            payload = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            head += ["Content-Type: application/json; charset=utf-8", "Content-Length: \(payload.utf8.count)"]
        }
        let answer = try await RawHTTP.exchange(port: port, head: head, body: payload, timeout: timeoutSeconds)
        let object =
            try JSONSerialization.jsonObject(with: Data(answer.body.utf8), options: [.fragmentsAllowed])
            as? [String: Any]
        let value = object?["value"]
        if answer.status >= 400 {
            let details = value as? [String: Any]
            throw WebDriverError(
                "\(method) \(url.path): \(details?["error"] ?? answer.status): \(details?["message"] ?? "")")
        }
        return value
    }
}

/// A WebDriver call that failed, or a page script that threw.
package struct WebDriverError: Error, CustomStringConvertible {
    package let description: String

    init(_ description: String) {
        self.description = description
    }
}
