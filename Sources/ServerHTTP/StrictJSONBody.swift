import Foundation
import Hummingbird

/// A request body decoded strictly: a JSON object of at most ``StrictJSON/maximumBodySize``
/// bytes whose every field is one of the type's `CodingKeys`.
///
/// Conform by declaring `enum CodingKeys: String, CodingKey, CaseIterable`; the compiler's
/// `Decodable` does the rest.
package protocol StrictJSONBody: Decodable, Sendable {
    /// The fields the body may have.
    associatedtype CodingKeys: CodingKey & CaseIterable
}

/// Reads request bodies for JSON APIs, refusing with a clear ``APIError`` (400) whatever is
/// not exactly the expected object: too large, not JSON, not an object, a field named twice,
/// unknown, missing or null fields, fields of the wrong type.
package enum StrictJSON {
    /// The largest body accepted, in bytes (64 KiB).
    package static let maximumBodySize = 64 * 1024

    /// Decodes the body of `request` as a `Body`.
    package static func decode<Body: StrictJSONBody>(
        _ type: Body.Type,
        from request: Request,
        context: some RequestContext
    ) async throws(APIError) -> Body {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximumBodySize)
        } catch {
            throw .invalidArgument("the request body is larger than \(maximumBodySize) bytes")
        }
        return try decode(type, from: Data(buffer.readableBytesView))
    }

    /// Decodes `data` as a `Body`.
    package static func decode<Body: StrictJSONBody>(_ type: Body.Type, from data: Data) throws(APIError) -> Body {
        guard data.count <= maximumBodySize else {
            throw .invalidArgument("the request body is larger than \(maximumBodySize) bytes")
        }
        guard !data.isEmpty else { throw .invalidArgument("the request body is empty; a JSON object is expected") }
        guard let object = try? JSONSerialization.jsonObject(with: data, options: []) else {
            throw .invalidArgument("the request body is not valid JSON")
        }
        guard let fields = object as? [String: Any] else {
            throw .invalidArgument("the request body must be a JSON object")
        }
        guard !JSONDuplicateMembers.found(in: data) else {
            throw .invalidArgument("the request body names a field twice")
        }
        let known = Set(Body.CodingKeys.allCases.map(\.stringValue))
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalidArgument("unknown field \"\(unknown)\"; allowed fields: \(known.sorted().joined(separator: ", "))")
        }
        if let null = fields.keys.sorted().first(where: { fields[$0] is NSNull }) {
            throw .invalidArgument("field \"\(null)\" is null; leave out a field that has no value")
        }
        do {
            return try JSONDecoder().decode(Body.self, from: data)
        } catch let error as DecodingError {
            throw .invalidArgument(describe(error))
        } catch {
            throw .invalidArgument("the request body could not be read")
        }
    }

    /// A message naming the field at fault, never quoting its value.
    static func describe(_ error: DecodingError) -> String {
        func field(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "the body" : "field \"" + path.map(\.stringValue).joined(separator: ".") + "\""
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \"" + (context.codingPath + [key]).map(\.stringValue).joined(separator: ".") + "\""
        case .valueNotFound(let type, let context):
            return "\(field(context.codingPath)) must be \(name(of: type)), not null"
        case .typeMismatch(let type, let context):
            return "\(field(context.codingPath)) must be \(name(of: type))"
        case .dataCorrupted(let context):
            return "\(field(context.codingPath)) is not valid"
        @unknown default:
            return "the request body could not be read"
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        default: "of type \(type)"
        }
    }
}
