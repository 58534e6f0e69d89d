import FleetAuthServerHTTP
import Hummingbird
import SwiftProtobuf

/// Reads REST request bodies into Fleet Engine's generated messages with swift-protobuf's
/// proto3 JSON, as Google's REST door reads them: field names in camelCase or the proto's
/// snake_case, enums by name or number, `"NaN"` and `"Infinity"` as numbers (so that they reach
/// validation and are refused by name), unknown fields refused; at most
/// ``StrictJSON/maximumBodySize`` bytes. A refusal names the field at fault
/// (``ProtoJSONDiagnosis``).
package enum ProtoJSONBody {
    /// The largest body of a method whose request may carry many resources (BatchCreateTasks'
    /// 500 tasks): 4 MiB, the largest message the gRPC door reads too.
    static let maximumMessageSize = 4 * 1024 * 1024

    /// The bytes of `request`'s body, or the 400 for a body over `limit` bytes: collected before
    /// the core asks for the body, which it does only once the caller may make the request.
    /// The limit is ``StrictJSON/maximumBodySize`` but for a method whose request may carry
    /// many resources, which has ``maximumMessageSize``.
    static func collect(_ request: Request, limit: Int = StrictJSON.maximumBodySize) async -> Result<[UInt8], APIError>
    {
        do {
            return .success(Array(try await request.body.collect(upTo: limit).readableBytesView))
        } catch {
            return .failure(.invalidArgument("the request body is larger than \(limit) bytes"))
        }
    }

    /// The `collected` body as a `Body`, or the 400 that refused its collection or names the
    /// field at fault.
    static func decode<Body: SwiftProtobuf.Message>(_ type: Body.Type, from collected: Result<[UInt8], APIError>)
        throws(APIError) -> Body
    {
        try decode(type, from: collected.get())
    }

    /// The JSON in `bytes` as a `Body`, or a 400 that names the field at fault.
    package static func decode<Body: SwiftProtobuf.Message>(_ type: Body.Type, from bytes: [UInt8]) throws(APIError)
        -> Body
    {
        guard let first = bytes.first(where: { !Self.whiteSpace.contains($0) }) else {
            throw .invalidArgument("the request body is empty; a JSON object is expected")
        }
        guard first == UInt8(ascii: "{") else { throw .invalidArgument("the request body must be a JSON object") }
        do {
            return try Body(jsonUTF8Bytes: bytes)
        } catch {
            throw .invalidArgument(ProtoJSONDiagnosis.explain(error, decoding: type, from: bytes))
        }
    }

    private static let whiteSpace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
}
