import FleetServerSupport
import Foundation
import Hummingbird

/// Reads request bodies as Google's proto3 JSON parser does: field names in camelCase or the
/// proto's snake_case, `"NaN"` and `"Infinity"` as numbers (so that they reach validation and
/// are refused by name), unknown fields refused; at most ``StrictJSON/maximumBodySize`` bytes.
enum ProtoJSONBody {
    /// The body of `request` as a `Body`, or a 400 that names the field at fault.
    static func decode<Body: Decodable>(_ type: Body.Type, from request: Request) async throws(APIError) -> Body {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: StrictJSON.maximumBodySize)
        } catch {
            throw .invalidArgument("the request body is larger than \(StrictJSON.maximumBodySize) bytes")
        }
        guard let first = buffer.readableBytesView.first(where: { !Self.whiteSpace.contains($0) }) else {
            throw .invalidArgument("the request body is empty; a JSON object is expected")
        }
        guard first == UInt8(ascii: "{") else { throw .invalidArgument("the request body must be a JSON object") }
        do {
            return try decoder.decode(type, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw .invalidArgument(StrictJSON.explain(error))
        } catch {
            throw .invalidArgument("the request body is not valid JSON")
        }
    }

    private static let whiteSpace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return decoder
    }
}
