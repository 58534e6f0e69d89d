import ArgumentParser
import FleetAuthServerHTTP
import Foundation
import LocalFleetEngine

/// `--console on|off`: a server's console at `/console/`, on by default when the server
/// listens on loopback only.
struct ConsoleSwitch: ParsableArguments {
    /// Whether the console is served.
    enum Setting: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    @Option(
        help: ArgumentHelp(
            "The console at /console/ (on or off).",
            discussion: """
                By default it is on when the server listens on a loopback address. The token server's console asks for \
                the admin key, so --console on opens it beyond loopback; the local Fleet Engine's also needs --console-key.
                """))
    var console: Setting?

    /// Whether the token server listening on `host` serves its console.
    func servesTokenServerConsole(host: String) -> Bool {
        console == .on || (console == nil && LoopbackHost.contains(host))
    }

    /// Where the token server's console is, for a server at `baseURL`, or why there is none.
    func describeTokenServerConsole(host: String, baseURL: String) -> String {
        if servesTokenServerConsole(host: host) { return "\(baseURL)/console/ (asks for the admin key)" }
        return console == .off
            ? "off (--console off)" : "off: the server listens beyond loopback; give --console on to open it"
    }
}

/// `--console on|off` and `--console-key FILE`: the local Fleet Engine's console at
/// `/console/`, on by default when the engine listens on loopback only.
struct ConsoleOptions: ParsableArguments {
    @OptionGroup var toggle: ConsoleSwitch

    @Option(
        help: ArgumentHelp(
            "A file whose first line is the key the engine's console asks for (and every /console/api/ call carries).",
            valueName: "file"))
    var consoleKey: String?

    func validate() throws {
        _ = try key()
    }

    /// Who may open the console of an engine listening on `host`.
    func access(host: String) throws -> ConsoleAccess {
        ConsoleAccess.choose(enabled: toggle.console != .off, key: try key(), host: host)
    }

    /// Where the console is for an engine at `baseURL`, or why there is none, for the banner.
    func describe(access: ConsoleAccess, baseURL: String) -> String {
        switch access {
        case .loopback: "\(baseURL)/console/"
        case .key: "\(baseURL)/console/ (asks for the key in \(consoleKey ?? "the key file"))"
        case .off where toggle.console == .off: "off (--console off)"
        case .off: "off: the engine listens beyond loopback; give --console-key FILE to open it"
        }
    }

    /// The key in the file, or `nil` without one; a usage error when the file is unreadable or
    /// holds no key.
    private func key() throws -> String? {
        guard let consoleKey else { return nil }
        guard let contents = try? String(contentsOfFile: consoleKey, encoding: .utf8) else {
            throw ValidationError("--console-key: cannot read \(consoleKey)")
        }
        let key =
            contents.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard key.count >= 16 else {
            throw ValidationError(
                "--console-key: \(consoleKey) should hold a key of at least 16 characters on its first line")
        }
        return key
    }
}
