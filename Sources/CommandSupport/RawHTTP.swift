import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One HTTP/1.1 exchange written byte for byte: for the tests' requests that no HTTP client would
/// send (headers over a server's limit, a malformed request line, broken chunked encoding), and
/// for peers whose answers an HTTP client refuses (chromedriver writes `Content-Length:917`,
/// with no space, which URLSession on Linux does not take).
///
/// The socket is driven on a dispatch queue of its own, so no blocking call holds one of Swift
/// concurrency's threads; every read has a deadline.
package enum RawHTTP {
    /// What the server answered.
    package struct Response: Sendable, CustomStringConvertible {
        /// The status code, e.g. 431.
        package let status: Int
        /// The header fields, names lowercased (the last of repeated names).
        package let headers: [String: String]
        /// The body as text.
        package let body: String

        /// `431 {"error":…}`.
        package var description: String { "\(status) \(body)" }

        /// The body's Google error `{"error":{"code","status","message"}}`, or `nil` when it is
        /// not one.
        package var googleError: (code: Int, status: String, message: String)? {
            guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
                let error = object["error"] as? [String: Any],
                let code = error["code"] as? Int, let status = error["status"] as? String,
                let message = error["message"] as? String
            else { return nil }
            return (code, status, message)
        }
    }

    /// Sends `request` to `127.0.0.1:port` and reads one response (to its `Content-Length`, or
    /// until the server closes), waiting at most `timeout` seconds for each read.
    package static func exchange(port: Int, request: [UInt8], timeout: Int = 30) async throws -> Response {
        try await exchange(port: port, request: request, responses: 1, timeout: timeout)[0]
    }

    /// Sends `request` — several pipelined requests, if it holds them — and reads `responses`
    /// answers from the same connection, in the order they arrive.
    package static func exchange(port: Int, request: [UInt8], responses: Int, timeout: Int = 30) async throws
        -> [Response]
    {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "raw-http").async {
                continuation.resume(
                    with: Result {
                        try exchangeBlocking(port: port, request: request, responses: responses, timeout: timeout)
                    })
            }
        }
    }

    /// Sends `request` to `127.0.0.1:port` and hangs up at once, without reading an answer: a
    /// client that goes away while the server is still answering.
    package static func sendAndHangUp(port: Int, request: [UInt8]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue(label: "raw-http").async {
                continuation.resume(
                    with: Result {
                        let descriptor = try connected(port: port, timeout: 5)
                        defer { close(descriptor) }
                        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, noSignal) }
                    })
            }
        }
    }

    /// Sends `request` and reads whatever comes back until the server closes the connection;
    /// returns whether it closed within `timeout` seconds.
    package static func serverCloses(port: Int, after request: [UInt8], within timeout: Int) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "raw-http").async {
                continuation.resume(
                    with: Result {
                        let descriptor = try connected(port: port, timeout: timeout)
                        defer { close(descriptor) }
                        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, noSignal) }
                        var buffer = [UInt8](repeating: 0, count: 4096)
                        while true {
                            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                            if count == 0 { return true }
                            if count < 0 { return false }
                        }
                    })
            }
        }
    }

    /// Sends `head` (lines joined with CRLF, ended by an empty line) and `body`.
    package static func exchange(port: Int, head: [String], body: String = "", timeout: Int = 30) async throws
        -> Response
    {
        try await exchange(
            port: port, request: Array((head.joined(separator: "\r\n") + "\r\n\r\n" + body).utf8), timeout: timeout)
    }

    #if canImport(Glibc)
        private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
        private static let noSignal: Int32 = 0
    #endif

    /// A TCP socket connected to `127.0.0.1:port`, each read waiting at most `timeout` seconds.
    private static func connected(port: Int, timeout: Int) throws -> Int32 {
        let descriptor = try LoopbackSocket.open()
        var readTimeout = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &readTimeout, socklen_t(MemoryLayout<timeval>.size))
        var address = LoopbackSocket.address(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw CommandFailure("connect to port \(port) failed: errno \(errno)")
        }
        return descriptor
    }

    private static func exchangeBlocking(port: Int, request: [UInt8], responses expected: Int, timeout: Int) throws
        -> [Response]
    {
        let descriptor = try connected(port: port, timeout: timeout)
        defer { close(descriptor) }
        var sent = 0
        while sent < request.count {
            // A server that refuses early may close before the rest is sent; its answer is read below.
            let written = request[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, noSignal) }
            if written <= 0 { break }
            sent += written
        }
        var received: [UInt8] = []
        var answers: [Response] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        let bodyless = request.starts(with: Array("HEAD ".utf8))
        var closed = false
        while answers.count < expected {
            if let end = responseEnd(received, bodyless: bodyless) {
                answers.append(try parse(Array(received[..<end])))
                received.removeFirst(end)
                continue
            }
            if closed {
                // The server closed: what is left is its last answer, if anything.
                if !received.isEmpty { answers.append(try parse(received)) }
                break
            }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                throw CommandFailure("no answer within \(timeout) s")
            }
            if count <= 0 {
                closed = true
            } else {
                received += chunk[0..<count]
            }
        }
        guard !answers.isEmpty else { throw CommandFailure("the server closed without answering") }
        return answers
    }

    /// Where the first whole response in `bytes` ends: its head and `Content-Length` bytes of
    /// body (none for an answer to `HEAD`, which is `bodyless`, nor for a 204 or 304); `nil`
    /// while it is incomplete.
    private static func responseEnd(_ bytes: [UInt8], bodyless: Bool) -> Int? {
        guard let (headers, bodyStart) = try? head(of: bytes) else { return nil }
        let status = bytes.dropFirst("HTTP/1.1 ".count).prefix(3)
        if bodyless || status.elementsEqual("204".utf8) || status.elementsEqual("304".utf8) { return bodyStart }
        guard let length = headers["content-length"].flatMap(Int.init), bytes.count - bodyStart >= length else {
            return nil
        }
        return bodyStart + length
    }

    private static func parse(_ bytes: [UInt8]) throws -> Response {
        let (headers, bodyStart) = try head(of: bytes)
        let statusLine = String(decoding: bytes.prefix(while: { $0 != UInt8(ascii: "\r") }), as: UTF8.self)
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw CommandFailure("not an HTTP response: \(statusLine)")
        }
        // The first answer only: a server may answer a request and then the unreadable rest
        // of the connection, and both can arrive in one read.
        let bodyEnd =
            headers["content-length"].flatMap(Int.init).map { min(bytes.count, bodyStart + $0) } ?? bytes.count
        return Response(
            status: status, headers: headers, body: String(decoding: bytes[bodyStart..<bodyEnd], as: UTF8.self))
    }

    /// The header fields of `bytes` and where the body starts.
    private static func head(of bytes: [UInt8]) throws -> ([String: String], Int) {
        let separator = Array("\r\n\r\n".utf8)
        guard
            let end = (0...max(0, bytes.count - separator.count)).first(where: {
                bytes[$0..<min(bytes.count, $0 + 4)].elementsEqual(separator)
            })
        else { throw CommandFailure("the answer has no complete head (\(bytes.count) bytes)") }
        var headers: [String: String] = [:]
        for line in String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return (headers, end + separator.count)
    }
}
