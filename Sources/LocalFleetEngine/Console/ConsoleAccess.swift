import FleetAuthServerHTTP
import Foundation

/// Who may open the engine's console at `/console/`.
package enum ConsoleAccess: Sendable, Equatable {
    /// No console.
    case off
    /// Anyone who can reach the engine, which listens on loopback only; requests must name a
    /// loopback host, so that a page of another site cannot reach it through DNS rebinding.
    case loopback
    /// Whoever gives this key: the page asks for it, and every `/console/api/` call carries it
    /// in `X-Console-Key`.
    case key(String)

    /// The access `fleetauth` gives: none when turned off; with `key` when one is given; open
    /// when the engine listens on loopback only (`host`); otherwise none.
    package static func choose(enabled: Bool, key: String?, host: String) -> ConsoleAccess {
        guard enabled else { return .off }
        if let key { return .key(key) }
        return LoopbackHost.contains(host) ? .loopback : .off
    }

    /// Why a console API request is refused, or `nil` when it may go on: its `Host` header
    /// (`host`) and its `X-Console-Key` (`key`).
    func refusal(host: String?, key given: String?) -> String? {
        switch self {
        case .off:
            return "the console is off"
        case .loopback:
            guard let host, LoopbackHost.contains(LoopbackHost.name(ofHost: host)) else {
                return
                    "the console answers only requests to a loopback name (127.0.0.1, localhost, [::1]); start the engine with --console-key FILE to open it to others"
            }
            return nil
        case .key(let key):
            guard let given else { return "the console needs its key: give it in X-Console-Key" }
            return Self.constantTimeEqual(Array(key.utf8), Array(given.utf8)) ? nil : "the console key is wrong"
        }
    }

    /// Whether `a` equals `b`, looking at every byte whatever differs, so that the time taken
    /// tells nothing of where a guess goes wrong.
    private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0 && a.count == b.count
    }
}

extension ConsoleAccess: CustomStringConvertible, CustomDebugStringConvertible {
    /// `off`, `loopback` or `key`: never the key itself, wherever the access is printed (a
    /// service group logs its services whole).
    package var description: String {
        switch self {
        case .off: "off"
        case .loopback: "loopback"
        case .key: "key (hidden)"
        }
    }

    package var debugDescription: String { description }
}
