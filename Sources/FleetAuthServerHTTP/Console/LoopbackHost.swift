/// Loopback names and addresses: where a server listens for this machine only, and the `Host`
/// a page of this machine's own servers sends (not a name a stranger can point here).
package enum LoopbackHost {
    /// Whether `host` (an address or name to listen on, or a `Host` header without its port)
    /// is loopback only.
    package static func contains(_ host: String) -> Bool {
        let name = host.lowercased()
        if name == "localhost" || name == "::1" || name == "[::1]" { return true }
        // 127.0.0.0/8, as a dotted quad only: `127.0.0.1.example.com` is a name anyone can point anywhere.
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { part in UInt8(part) != nil }
    }

    /// A `Host` header's name, without its port (`[::1]:8081` → `[::1]`).
    package static func name(ofHost host: String) -> String {
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") { return String(host[...end]) }
        return String(host.split(separator: ":", maxSplits: 1).first ?? "")
    }
}
