import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Gives the answer to a request the HTTP/1.1 parser refuses Google's JSON error body.
///
/// When the parser refuses a request (headers over the limit, a malformed request line, bad
/// chunked encoding), Hummingbird answers `400` with an empty body and closes the connection.
/// This handler, placed after the codec, notes the parser's error on its way in and rewrites
/// that bare answer on its way out as ``APIError/parseError(_:)`` says: 431 for headers over the
/// limit, 400 naming the fault otherwise.
final class ParseErrorJSONHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The parser's error, once it has refused the connection's input.
    private var parseError: HTTPParserError?

    /// Notes a parser error and passes every error on.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? HTTPParserError { parseError = error }
        context.fireErrorCaught(error)
    }

    /// Rewrites Hummingbird's bare answer to a parser error; passes everything else on.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let parseError, case .head(let head) = unwrapOutboundIn(data), Self.isBareRefusal(head) else {
            context.write(data, promise: promise)
            return
        }
        let error = APIError.parseError(parseError)
        let body = ByteBuffer(bytes: error.jsonBody())
        var fields = error.headers
        fields[.connection] = "close"
        fields[.contentLength] = String(body.readableBytes)
        context.write(
            wrapOutboundOut(.head(HTTPResponse(status: error.status, headerFields: fields))), promise: promise)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
    }

    /// Whether `head` is Hummingbird's answer to a parse error: 400 with no body. The routes
    /// never send one (every refusal of theirs has a JSON body).
    private static func isBareRefusal(_ head: HTTPResponse) -> Bool {
        head.status == .badRequest && head.headerFields[.contentLength] == "0"
    }
}
