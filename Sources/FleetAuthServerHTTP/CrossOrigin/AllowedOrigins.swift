/// The web origins a server lets pages read its answers from: exact origins
/// (`https://rider.example.com`) and loopback origins on any port (`http://localhost:*`,
/// `http://127.0.0.1:*`), as given by `--allow-origin`.
///
/// Never `*`: the routes it guards take credentials (a session or an ID token), and an answer
/// readable by every page would hand a user's tokens to any site they visit.
package struct AllowedOrigins: Sendable, Equatable {
    /// Origins allowed exactly as written: scheme, host and port, lowercased, default port
    /// left out, as a browser sends them in `Origin`.
    package private(set) var exact: Set<String> = []
    /// `scheme://host` pairs allowed on any port (from `scheme://host:*`).
    package private(set) var anyPort: Set<String> = []

    /// No origin: no page on another origin can read an answer.
    package static let none = AllowedOrigins()

    /// `http://localhost:*` and `http://127.0.0.1:*`, which `serve` and `demo` allow.
    package static var loopback: AllowedOrigins {
        var origins = AllowedOrigins()
        origins.anyPort = ["http://localhost", "http://127.0.0.1"]
        return origins
    }

    /// These origins and `other`'s.
    package func union(_ other: AllowedOrigins) -> AllowedOrigins {
        var both = self
        both.exact.formUnion(other.exact)
        both.anyPort.formUnion(other.anyPort)
        return both
    }

    /// Origins from `--allow-origin` values; throws ``AllowedOriginsError`` naming the first one
    /// that is not an origin.
    package init(parsing values: [String]) throws(AllowedOriginsError) {
        for value in values {
            switch Self.parse(value) {
            case .exact(let origin): exact.insert(origin)
            case .anyPort(let origin): anyPort.insert(origin)
            case nil: throw AllowedOriginsError(value: value)
            }
        }
    }

    private init() {}

    /// Whether a page whose `Origin` header is `origin` may read answers.
    package func allows(_ origin: some StringProtocol) -> Bool {
        let origin = origin.lowercased()
        if exact.contains(origin) { return true }
        guard !anyPort.isEmpty, let colon = origin.lastIndex(of: ":"),
            origin[origin.index(after: colon)...].allSatisfy(\.isNumber)
        else {
            return anyPort.contains(origin)
        }
        return anyPort.contains(String(origin[..<colon]))
    }

    private enum Parsed {
        case exact(String)
        case anyPort(String)
    }

    /// `scheme://host[:port]` with scheme http or https, no path, query, user or fragment;
    /// `:*` for any port. Lowercased; the scheme's default port left out.
    private static func parse(_ value: String) -> Parsed? {
        let value = value.lowercased()
        let scheme: String
        if value.hasPrefix("https://") {
            scheme = "https"
        } else if value.hasPrefix("http://") {
            scheme = "http"
        } else {
            return nil
        }
        let authority = value.dropFirst(scheme.count + 3)
        guard !authority.isEmpty, !authority.contains(where: { "/?#@ ".contains($0) }) else { return nil }
        var host = authority
        var port: Substring?
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        // ASCII only: browsers send a domain's punycode form, which an entry in Unicode would never match.
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.[]:".contains($0)) })
        else { return nil }
        let base = "\(scheme)://\(host)"
        switch port {
        case nil:
            return .exact(base)
        case "*":
            return .anyPort(base)
        case let port?:
            guard let number = Int(port), (1...65535).contains(number), port.allSatisfy(\.isNumber) else { return nil }
            let isDefault = (scheme == "http" && number == 80) || (scheme == "https" && number == 443)
            return .exact(isDefault ? base : "\(base):\(number)")
        }
    }
}

/// A `--allow-origin` value that is not an origin.
package struct AllowedOriginsError: Error, CustomStringConvertible, Equatable {
    /// The value as given.
    package let value: String

    /// The error for `value`.
    package init(value: String) {
        self.value = value
    }

    package var description: String {
        "'\(value)' is not an origin: give scheme://host or scheme://host:port (http or https, no path), or scheme://host:* for any port; never *"
    }
}
