import FleetServerSupport
import Foundation
import Hummingbird

/// Reads request bodies as Google's proto3 JSON parser does: field names in camelCase or the
/// proto's snake_case (tried when a snake_case name was refused), `"NaN"` and `"Infinity"` as
/// numbers (so that they reach validation and are refused by name), unknown fields refused; at
/// most ``StrictJSON/maximumBodySize`` bytes.
enum ProtoJSONBody {
    /// The body of `request` as a `Body`, or a 400 that names the field at fault; a body that
    /// `quickReader` takes skips the general decoder.
    static func decode<Body: Decodable>(
        _ type: Body.Type, from request: Request, quickReader: (UnsafeRawBufferPointer) -> Body? = { _ in nil }
    ) async throws(APIError) -> Body {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: StrictJSON.maximumBodySize)
        } catch {
            throw .invalidArgument("the request body is larger than \(StrictJSON.maximumBodySize) bytes")
        }
        return try decode(type, from: buffer, quickReader: quickReader)
    }

    /// The body in `buffer` as a `Body`, or a 400 that names the field at fault; a body that
    /// `quickReader` takes skips the general decoder.
    static func decode<Body: Decodable>(
        _ type: Body.Type, from buffer: ByteBuffer, quickReader: (UnsafeRawBufferPointer) -> Body? = { _ in nil }
    ) throws(APIError) -> Body {
        guard let first = buffer.readableBytesView.first(where: { !Self.whiteSpace.contains($0) }) else {
            throw .invalidArgument("the request body is empty; a JSON object is expected")
        }
        guard first == UInt8(ascii: "{") else { throw .invalidArgument("the request body must be a JSON object") }
        if let body = buffer.withUnsafeReadableBytes(quickReader) { return body }
        let data = Data(buffer.readableBytesView)
        do {
            return try camelCase.decode(type, from: data)
        } catch let error as DecodingError {
            guard Self.isUnknownSnakeCaseField(error) else { throw .invalidArgument(StrictJSON.explain(error)) }
            do {
                return try snakeCase.decode(type, from: data)
            } catch let error as DecodingError {
                throw .invalidArgument(StrictJSON.explain(error))
            } catch {
                throw .invalidArgument("the request body is not valid JSON")
            }
        } catch {
            throw .invalidArgument("the request body is not valid JSON")
        }
    }

    private static let whiteSpace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]

    /// The decoder for the usual camelCase bodies (converting keys costs time on every request).
    private static let camelCase = makeDecoder(keys: .useDefaultKeys)
    /// The decoder for bodies with the proto's snake_case names, tried when the first refused one.
    private static let snakeCase = makeDecoder(keys: .convertFromSnakeCase)

    private static func makeDecoder(keys: JSONDecoder.KeyDecodingStrategy) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = keys
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return decoder
    }

    /// Whether `error` refuses an unknown field whose name has an underscore.
    private static func isUnknownSnakeCaseField(_ error: DecodingError) -> Bool {
        guard case .dataCorrupted(let context) = error, let field = context.codingPath.last else { return false }
        return field.stringValue.contains("_")
    }
}
