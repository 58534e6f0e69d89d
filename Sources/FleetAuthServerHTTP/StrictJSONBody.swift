import FleetAuthCodecs
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
        try checkShape(of: data, allowing: Set(Body.CodingKeys.allCases.map(\.stringValue)))
        do {
            return try JSONDecoder().decode(Body.self, from: data)
        } catch let error as DecodingError {
            throw .invalidArgument(describe(error))
        } catch {
            throw .invalidArgument("the request body could not be read")
        }
    }

    /// Refuses `data` unless it is one JSON object (strict RFC 8259) naming each member once,
    /// every member one of `allowed` and none `null`. What the values hold is the decoder's to
    /// check; Foundation's decoder alone would take a trailing comma, and keep the first of two
    /// `password`s where another reader keeps the last.
    private static func checkShape(of data: Data, allowing allowed: Set<String>) throws(APIError) {
        var members: [(name: String, isNull: Bool)] = []
        do throws(JSONReadError) {
            try JSONCursor.read(data) { (cursor) throws(JSONReadError) in
                try cursor.readDocumentObject { (cursor, name) throws(JSONReadError) in
                    let isNull = cursor.readNull()
                    if !isNull { try cursor.skipValue() }
                    members.append((name, isNull))
                }
            }
        } catch JSONReadError.duplicateKey {
            throw .invalidArgument("the request body names a field twice")
        } catch .wrongType(_, let field) where field.isEmpty {
            throw .invalidArgument("the request body must be a JSON object")
        } catch {
            throw .invalidArgument("the request body is not valid JSON")
        }
        let names = members.map(\.name).sorted()
        if let unknown = names.first(where: { !allowed.contains($0) }) {
            throw .invalidArgument(
                "unknown field \"\(unknown)\"; allowed fields: \(allowed.sorted().joined(separator: ", "))")
        }
        if let null = members.filter(\.isNull).map(\.name).min() {
            throw .invalidArgument("field \"\(null)\" is null; leave out a field that has no value")
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
