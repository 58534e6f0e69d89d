import FleetAuthServerHTTP
import Foundation
import Hummingbird
import SwiftProtobuf

/// Reads a request message from a REST query, as Google's REST mapping carries the fields of a
/// `GET` list request: one parameter per field, nested fields by dotted path
/// (`viewport.low.latitude`, `header.languageCode`), names in camelCase or snake_case (a
/// parameter given twice becomes a list). Each value is read as proto3 JSON reads a quoted
/// value (numbers and enum names included), so a parameter the message has no field for, or a
/// value its field cannot take, is refused with the message's own name for it. Google's system
/// parameter `$alt` is skipped; `fields` names the parameters read elsewhere (from the path).
///
/// A query does not say a field's type where JSON would: the caller gives the ``Shape`` of the
/// top-level fields whose values JSON writes otherwise than as a string, by camelCase name.
enum QueryMessage {
    /// How a field's values are written in JSON, where that is not one quoted string.
    struct Shape: OptionSet, Sendable {
        let rawValue: Int
        /// A repeated field: one value is a list of one.
        static let list = Shape(rawValue: 1)
        /// A boolean: `true` and `false` are JSON's literals.
        static let boolean = Shape(rawValue: 2)
        /// An enum: a value given by number is a JSON number (by name, a string).
        static let enumeration = Shape(rawValue: 4)
    }

    /// The `Request` the query `parameters` give, or a 400 naming the parameter at fault.
    static func decode<Request: SwiftProtobuf.Message>(
        _: Request.Type, from parameters: Parameters, skipping fields: Set<String> = [],
        shapes: [String: Shape] = [:]
    ) throws(APIError) -> Request {
        var root: [String: Any] = [:]
        for (name, value) in parameters where name != "$alt" && !fields.contains(String(name)) {
            insert(String(value), at: name.split(separator: ".").map(String.init)[...], into: &root)
        }
        guard !root.isEmpty else { return Request() }
        for (key, value) in root {
            guard let shape = shapes[FieldMask.camelCase(key)] else { continue }
            root[key] = Self.shaped(value, as: shape)
        }
        let bytes: [UInt8]
        do {
            bytes = Array(try JSONSerialization.data(withJSONObject: root))
        } catch {
            throw .invalidArgument("the query could not be read as a \(Request.protoMessageName)")
        }
        do {
            return try Request(jsonUTF8Bytes: bytes)
        } catch {
            throw .invalidArgument(
                ProtoJSONDiagnosis.explain(error, decoding: Request.self, from: bytes).replacingOccurrences(
                    of: "the request body", with: "the query"))
        }
    }

    /// `value`, one string or a list of them, as JSON writes a field of `shape`.
    private static func shaped(_ value: Any, as shape: Shape) -> Any {
        func one(_ text: String) -> Any {
            if shape.contains(.boolean), let flag = Bool(text) { return flag }
            if shape.contains(.enumeration), let number = Int32(text) { return NSNumber(value: number) }
            return text
        }
        if let list = value as? [String] { return list.map(one) }
        guard let text = value as? String else { return value }
        return shape.contains(.list) ? [one(text)] : one(text)
    }

    /// Puts `value` at `path` in `object`; a value given twice becomes a list.
    private static func insert(_ value: String, at path: ArraySlice<String>, into object: inout [String: Any]) {
        guard let key = path.first else { return }
        if path.count == 1 {
            switch object[key] {
            case nil: object[key] = value
            case let list as [String]: object[key] = list + [value]
            case let single as String: object[key] = [single, value]
            default: object[key] = value
            }
            return
        }
        var nested = object[key] as? [String: Any] ?? [:]
        insert(value, at: path.dropFirst(), into: &nested)
        object[key] = nested
    }
}
