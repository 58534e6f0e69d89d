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
enum QueryMessage {
    /// The `Request` the query `parameters` give, or a 400 naming the parameter at fault.
    static func decode<Request: SwiftProtobuf.Message>(
        _: Request.Type, from parameters: Parameters, skipping fields: Set<String> = []
    ) throws(APIError) -> Request {
        var root: [String: Any] = [:]
        for (name, value) in parameters where name != "$alt" && !fields.contains(String(name)) {
            insert(String(value), at: name.split(separator: ".").map(String.init)[...], into: &root)
        }
        guard !root.isEmpty else { return Request() }
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
