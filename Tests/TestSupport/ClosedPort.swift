import CommandSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback TCP port that refuses connections: bound by a socket that never listens, and held
/// while a test uses it, so that no other test's server (the tests run at once) can take it.
public enum ClosedPort {
    /// Runs `body` with a port on 127.0.0.1 where a connection is refused at once.
    public static func with<Result>(_ body: (Int) async throws -> Result) async throws -> Result {
        let descriptor = try LoopbackSocket.open()
        defer { close(descriptor) }
        var address = LoopbackSocket.address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else { throw TestFailure("binding a loopback port failed: errno \(errno)") }
        return try await body(Int(UInt16(bigEndian: address.sin_port)))
    }
}
