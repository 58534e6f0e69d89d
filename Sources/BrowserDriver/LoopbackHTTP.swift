import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP/1.1 exchange with a server on 127.0.0.1, on a thread of its own: what the WebDriver
/// calls go through. chromedriver writes its header fields without a space after the colon
/// (`Content-Length:917`), which Foundation's URLSession on Linux refuses, so this reads them
/// itself: a status line, fields, and a body of `Content-Length` bytes.
enum LoopbackHTTP {
    /// The answer's status and body.
    struct Answer: Sendable {
        let status: Int
        let body: Data
    }

    /// Sends `method path` with `body` (JSON) to `port` and waits for the whole answer, at most
    /// `timeout`.
    static func exchange(port: Int, method: String, path: String, body: Data?, timeout: Duration) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try exchangeBlocking(port: port, method: method, path: path, body: body, timeout: timeout) })
            }
        }
    }

    private static func exchangeBlocking(port: Int, method: String, path: String, body: Data?, timeout: Duration) throws -> Answer {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw WebDriverError("cannot open a socket: errno \(errno)") }
        defer { close(descriptor) }
        var wait = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw WebDriverError("cannot connect to 127.0.0.1:\(port): errno \(errno)") }

        var request = Data("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n".utf8)
        if let body {
            request.append(Data("Content-Type: application/json; charset=utf-8\r\nContent-Length: \(body.count)\r\n".utf8))
        }
        request.append(Data("\r\n".utf8))
        if let body { request.append(body) }
        try request.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = send(descriptor, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                guard count > 0 else { throw WebDriverError("sending to 127.0.0.1:\(port) failed: errno \(errno)") }
                sent += count
            }
        }

        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw WebDriverError("no answer from 127.0.0.1:\(port) within \(timeout)") }
            if count == 0 { break }
            received.append(contentsOf: buffer[..<count])
            if let answer = try complete(received) { return answer }
        }
        guard let answer = try complete(received) else { throw WebDriverError("127.0.0.1:\(port) closed the connection mid-answer") }
        return answer
    }

    /// The answer in `bytes` once its head and its `Content-Length` bytes of body are in.
    private static func complete(_ bytes: Data) throws -> Answer? {
        guard let end = bytes.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = head.first?.split(separator: " ") ?? []
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw WebDriverError("not an HTTP answer: \(head.first ?? "")") }
        let length = head.dropFirst().lazy.compactMap { field -> Int? in
            guard let colon = field.firstIndex(of: ":"), field[..<colon].lowercased() == "content-length" else { return nil }
            return Int(field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }.first
        let body = bytes[end.upperBound...]
        guard let length else { return nil }
        guard body.count >= length else { return nil }
        return Answer(status: status, body: Data(body.prefix(length)))
    }
}
