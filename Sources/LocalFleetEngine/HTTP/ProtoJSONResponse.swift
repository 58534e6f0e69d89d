import Hummingbird
import SwiftProtobuf

/// A generated message that a REST route answers with: `200 OK` and the message's proto3 JSON
/// (camelCase names, unset fields left out), enums by name, or by number when the request asks
/// for Google's `$alt=json;enum-encoding=int`.
struct ProtoJSONResponse<Message: SwiftProtobuf.Message>: ResponseGenerator {
    /// The answer.
    let message: Message

    /// Wraps `message`.
    init(_ message: Message) {
        self.message = message
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var options = JSONEncodingOptions()
        options.alwaysPrintEnumsAsInts = Self.wantsEnumNumbers(request)
        let bytes: [UInt8] = try message.jsonUTF8Bytes(options: options)
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Whether `request` has Google's system parameter `$alt=json;enum-encoding=int`.
    static func wantsEnumNumbers(_ request: Request) -> Bool {
        // Most requests name no `$alt` (escaped or not): they are answered without parsing the query.
        guard request.uri.query?.contains("alt") == true, let alt = request.uri.formQueryParameters.get("$alt") else { return false }
        return alt.split(separator: ";").contains("enum-encoding=int")
    }
}
