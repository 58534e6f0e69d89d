import Foundation
import GRPCCore
import NIOCore
import NIOHPACK

/// gRPC's wire format over HTTP/2, as far as the engine's door needs it: length-prefixed
/// messages, metadata to and from HTTP/2 headers, and status trailers.
enum GRPCWire {
    /// A request stream that is not gRPC, or not one the door can read: the status to answer.
    struct Refusal: Error {
        let status: Status
    }

    /// Splits `buffer`, the whole body of a request, into its messages: each a compressed
    /// flag byte, a 4-byte big-endian length and the bytes. The door supports no compression.
    static func messages(in buffer: inout ByteBuffer) throws(Refusal) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        while buffer.readableBytes > 0 {
            guard let flag = buffer.readInteger(as: UInt8.self), let length = buffer.readInteger(as: UInt32.self),
                let bytes = buffer.readBytes(length: Int(length))
            else { throw Refusal(status: Status(code: .internalError, message: "the request ends inside a message")) }
            guard flag == 0 else {
                throw Refusal(
                    status: Status(
                        code: .unimplemented, message: "compressed messages are not supported; send them uncompressed"))
            }
            messages.append(bytes)
        }
        return messages
    }

    /// The method a request's `:path` names, `/{service}/{method}`, or `nil` when it names none.
    static func method(atPath path: String) -> MethodDescriptor? {
        let slash = UInt8(ascii: "/")
        let bytes = path.utf8
        guard bytes.first == slash else { return nil }
        let serviceStart = bytes.index(after: bytes.startIndex)
        guard let separator = bytes[serviceStart...].firstIndex(of: slash) else { return nil }
        let methodStart = bytes.index(after: separator)
        guard serviceStart < separator, methodStart < bytes.endIndex, !bytes[methodStart...].contains(slash) else {
            return nil
        }
        return MethodDescriptor(
            fullyQualifiedService: String(path[serviceStart..<separator]), method: String(path[methodStart...]))
    }

    /// `message` with its 5-byte prefix (uncompressed).
    static func frame(_ message: [UInt8], allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: message.count + 5)
        buffer.writeInteger(UInt8(0))
        buffer.writeInteger(UInt32(message.count))
        buffer.writeBytes(message)
        return buffer
    }

    /// The caller's metadata: every header but HTTP/2's pseudo-headers and those gRPC itself
    /// uses for transport (`content-type`, `te`, …); `-bin` values base64-decoded.
    static func metadata(of headers: HPACKHeaders) -> Metadata {
        var metadata = Metadata()
        for (name, value, _) in headers where !name.hasPrefix(":") && !transportHeaders.contains(name) {
            if name.hasSuffix("-bin") {
                if let bytes = base64Decoded(value) { metadata.addBinary(bytes, forKey: name) }
            } else {
                metadata.addString(value, forKey: name)
            }
        }
        return metadata
    }

    /// The headers that open an answer, with `metadata`.
    static func responseHeaders(_ metadata: Metadata) -> HPACKHeaders {
        var headers: HPACKHeaders = [":status": "200", "content-type": "application/grpc"]
        add(metadata, to: &headers)
        return headers
    }

    /// The trailers that end an answer: `status`, and `metadata`; with `trailersOnly`, also
    /// what opens an answer (an answer with no message).
    static func trailers(_ status: Status, _ metadata: Metadata, trailersOnly: Bool) -> HPACKHeaders {
        var headers: HPACKHeaders = trailersOnly ? [":status": "200", "content-type": "application/grpc"] : [:]
        headers.add(name: "grpc-status", value: String(status.code.rawValue))
        if !status.message.isEmpty { headers.add(name: "grpc-message", value: percentEncoded(status.message)) }
        add(metadata, to: &headers)
        return headers
    }

    /// Headers gRPC uses for transport, not metadata of the call.
    private static let transportHeaders: Set<String> = [
        "content-type", "te", "grpc-encoding", "grpc-accept-encoding", "content-length",
    ]

    private static func add(_ metadata: Metadata, to headers: inout HPACKHeaders) {
        for (key, value) in metadata {
            switch value {
            case .string(let text): headers.add(name: key, value: text)
            case .binary(let bytes): headers.add(name: key, value: base64Encoded(bytes))
            }
        }
    }

    /// `text` as `grpc-message` carries it: UTF-8, every byte outside printable ASCII and `%`
    /// itself as `%XX`.
    static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            if (0x20...0x7E).contains(byte), byte != UInt8(ascii: "%") {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }

    private static func base64Encoded(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    private static func base64Decoded(_ text: String) -> [UInt8]? {
        let padded = text + String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: padded).map(Array.init)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
