import Foundation
import SwiftProtobuf

/// Says where in a JSON body swift-protobuf's decoder failed, which its errors do not: the
/// body is read with Foundation, then cut down to single fields, one level at a time, and each
/// cut is decoded again as the same message until the smallest failing field is found (the
/// cuts need no knowledge of the message's fields). Runs on refused bodies only.
enum ProtoJSONDiagnosis {
    /// A sentence for `error`, which decoding `bytes` as a `Body` threw, naming the field at
    /// fault and its value when they can be found.
    static func explain<Body: SwiftProtobuf.Message>(_ error: any Error, decoding type: Body.Type, from bytes: [UInt8])
        -> String
    {
        guard let root = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else {
            return "the request body is not valid JSON"
        }
        guard let fault = fault(in: root, path: "", wrap: { $0 }, decoding: type) else {
            return "the request body is not a valid \(type.protoMessageName): \(reason(error))"
        }
        if case JSONDecodingError.unknownField = fault.error {
            return "unknown field \"\(fault.path)\" (proto3 JSON, \(type.protoMessageName))"
        }
        return "\(fault.path) is \(describe(fault.value)): \(reason(fault.error))"
    }

    /// The deepest single field of `value` (found at `path`; `wrap` puts a replacement of it
    /// back into a whole body) whose body alone fails to decode, with its error.
    private static func fault<Body: SwiftProtobuf.Message>(
        in value: Any, path: String, wrap: @escaping (Any) -> Any, decoding type: Body.Type
    ) -> (path: String, value: Any, error: any Error)? {
        let children: [(key: String?, path: String, value: Any, wrap: (Any) -> Any)]
        if let object = value as? [String: Any] {
            children = object.sorted { $0.key < $1.key }.map { key, child in
                (key, path.isEmpty ? key : "\(path).\(key)", child, { wrap([key: $0]) })
            }
        } else if let array = value as? [Any] {
            children = array.enumerated().map { index, child in (nil, "\(path)[\(index)]", child, { wrap([$0]) }) }
        } else {
            return nil
        }
        for child in children {
            guard let error = decodingError(child.wrap(child.value), as: type) else { continue }
            if case JSONDecodingError.unknownField(let name) = error, name == child.key {
                return (child.path, child.value, error)
            }
            return fault(in: child.value, path: child.path, wrap: child.wrap, decoding: type) ?? (
                child.path, child.value, error
            )
        }
        return nil
    }

    /// What decoding `body` as a `Body` throws, if anything.
    private static func decodingError<Body: SwiftProtobuf.Message>(_ body: Any, as type: Body.Type) -> (any Error)? {
        guard let data = try? JSONSerialization.data(withJSONObject: body, options: [.fragmentsAllowed]) else {
            return nil
        }
        do {
            _ = try Body(jsonUTF8Bytes: data)
            return nil
        } catch {
            return error
        }
    }

    /// A value as it appeared in the body, shortened.
    private static func describe(_ value: Any) -> String {
        let text: String
        switch value {
        case let string as String: text = "\"\(string)\""
        case is [String: Any]: text = "an object"
        case is [Any]: text = "a list"
        case is NSNull: text = "null"
        default: text = "\(value)"
        }
        return text.count > 60 ? "\(text.prefix(57))…" : text
    }

    /// What a swift-protobuf error means, in words.
    private static func reason(_ error: any Error) -> String {
        switch error as? JSONDecodingError {
        case .unrecognizedEnumValue?: "not a name or number of its enum"
        case .malformedNumber?, .leadingZero?: "not a valid number"
        case .numberRange?: "out of range for its field"
        case .malformedBool?: "not true or false"
        case .malformedString?, .invalidUTF8?: "not a valid string"
        case .malformedTimestamp?: "not an RFC 3339 time such as 2026-01-02T03:04:05Z"
        case .malformedDuration?: "not a duration such as 30s or 1.5s"
        case .malformedFieldMask?: "not a field mask"
        case .illegalNull?: "null is not allowed here"
        case .conflictingOneOf?: "it sets more than one field of a oneof"
        case .messageDepthLimit?: "nested too deeply"
        case .unknownField(let name)?: "unknown field \"\(name)\""
        default: "not valid proto3 JSON (\(error))"
        }
    }
}
