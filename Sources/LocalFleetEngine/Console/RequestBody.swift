import Foundation
import SwiftProtobuf

/// The body of a recorded call as Google's HTTP mapping defines it (a REST call's body; over
/// gRPC, the request field that REST sends as the body), kept as the door had it and turned
/// into JSON only when `/emulator/v1/calls` or the console shows it, so that recording a call
/// costs no encoding.
enum RequestBody: Sendable {
    /// The JSON a REST call sent.
    case json([UInt8])
    /// The message a gRPC call sent, or the field of it REST would send.
    case message(any SwiftProtobuf.Message)

    /// The largest body kept (REST's bytes, or a gRPC message's binary size): a larger one is
    /// recorded without it, so that the ring of calls holds at most this much a call.
    static let maximumKeptBytes = 16 * 1024

    /// The body of a REST call that sent `bytes`: `nil` for none, or for more than
    /// ``maximumKeptBytes``.
    static func rest(_ bytes: some Collection<UInt8>) -> RequestBody? {
        bytes.isEmpty || bytes.count > maximumKeptBytes ? nil : .json(Array(bytes))
    }

    /// The body of a gRPC call, `message`, unless its binary size is over ``maximumKeptBytes``.
    static func grpc(_ message: some SwiftProtobuf.Message) -> RequestBody? {
        guard let bytes: [UInt8] = try? message.serializedBytes(), bytes.count <= maximumKeptBytes else { return nil }
        return .message(message)
    }

    /// The body as a JSON object, or `nil` when it is not one (a REST body the call refused).
    var value: JSONValue? {
        let bytes: [UInt8]
        switch self {
        case .json(let json): bytes = json
        case .message(let message):
            guard let json: [UInt8] = try? message.jsonUTF8Bytes() else { return nil }
            bytes = json
        }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)), case .object = value else {
            return nil
        }
        return value
    }
}
