import ArgumentParser
import Foundation
import LocalFleetEngine

/// `--console on|off` and `--console-key FILE`: the local Fleet Engine's console at
/// `/console/`, on by default when the engine listens on loopback only.
struct ConsoleOptions: ParsableArguments {
    /// Whether the console is served.
    enum Switch: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    @Option(help: ArgumentHelp(
        "The console at /console/ (on or off).",
        discussion: "On a loopback address it is open to this machine; on any other it stays off unless --console-key is given."))
    var console: Switch = .on

    @Option(help: ArgumentHelp("A file whose first line is the key the console asks for (and every /console/api/ call carries).", valueName: "file"))
    var consoleKey: String?

    func validate() throws {
        _ = try key()
    }

    /// Who may open the console of an engine listening on `host`.
    func access(host: String) throws -> ConsoleAccess {
        ConsoleAccess.choose(enabled: console == .on, key: try key(), host: host)
    }

    /// Where the console is for an engine at `baseURL`, or why there is none, for the banner.
    func describe(access: ConsoleAccess, baseURL: String) -> String {
        switch access {
        case .loopback: "\(baseURL)/console/"
        case .key: "\(baseURL)/console/ (asks for the key in \(consoleKey ?? "the key file"))"
        case .off where console == .off: "off (--console off)"
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
        let key = contents.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard key.count >= 16 else { throw ValidationError("--console-key: \(consoleKey) should hold a key of at least 16 characters on its first line") }
        return key
    }
}
