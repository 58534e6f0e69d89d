#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// TCP sockets on 127.0.0.1, for speaking to a port byte for byte (``RawHTTP``) or holding one.
package enum LoopbackSocket {
    /// A new TCP socket.
    package static func open() throws -> Int32 {
        #if canImport(Glibc)
            let socketType = Int32(SOCK_STREAM.rawValue)
        #else
            let socketType = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, socketType, 0)
        guard descriptor >= 0 else { throw CommandFailure("socket() failed: errno \(errno)") }
        return descriptor
    }

    /// `127.0.0.1:port` (0: any free port, when binding).
    package static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
