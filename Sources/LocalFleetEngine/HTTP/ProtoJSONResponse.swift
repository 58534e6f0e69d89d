import FleetAuthServerHTTP
import Hummingbird
import HummingbirdCore
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
        try PipelineAnswer(protoJSON: message, enumsAsNumbers: request.uri.asksForEnumNumbers).response
    }
}

extension PipelineAnswer {
    /// `200 OK` with `message`'s proto3 JSON, its enums by number when `enumsAsNumbers`.
    init(protoJSON message: some SwiftProtobuf.Message, enumsAsNumbers: Bool) throws {
        var options = JSONEncodingOptions()
        options.alwaysPrintEnumsAsInts = enumsAsNumbers
        let bytes: [UInt8] = try message.jsonUTF8Bytes(options: options)
        self.init(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: ByteBuffer(bytes: bytes))
    }
}

extension URI {
    /// Whether the query has Google's system parameter `$alt=json;enum-encoding=int`.
    var asksForEnumNumbers: Bool {
        // Most requests name no `$alt` (escaped or not): they are answered without parsing the query.
        guard query?.contains("alt") == true, let alt = formQueryParameters.get("$alt") else { return false }
        return alt.split(separator: ";").contains("enum-encoding=int")
    }
}
