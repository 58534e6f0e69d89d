import Hummingbird
import HummingbirdCore
import NIOHTTP1

/// HTTP/1.1 as the token server and the local Fleet Engine speak it: request headers of at most
/// ``maximumHeaderBytes``, and a JSON error body for every request the parser refuses.
package enum FleetHTTPServer {
    /// The most bytes of request headers taken, in one field or all together (64 KiB). A token
    /// is at most 8 KiB, so no real client comes near; more is answered 431.
    package static let maximumHeaderBytes = 64 * 1024
    /// The most request header fields taken; more is answered 431.
    package static let maximumHeaderFields = 1000

    /// The server builder for a Hummingbird `Application`.
    package static var http1: HTTPServerBuilder {
        .http1(
            configuration: .init(
                additionalChannelHandlers: [ParseErrorJSONHandler()],
                httpDecoderConfiguration: .init(
                    maxHeaderFieldSize: maximumHeaderBytes, maxHeaderListSize: maximumHeaderBytes,
                    maxHeaderFieldCount: maximumHeaderFields)
            ))
    }

    /// ``http1`` with `route` answered in the channel pipeline, before the router (see
    /// ``PipelineRoute``); `serverName` goes in its answers' `Server` header, as Hummingbird
    /// puts the application's in the router's. Await `inFlight`'s ``PipelineAnswersInFlight/drained()``
    /// after the server stops, before closing what the route uses. The route's answers get the
    /// CORS headers of `crossOrigin`, as ``CrossOriginMiddleware`` gives the router's. Slow and
    /// idle clients are let go, and connections closed while draining, as `lifecycle` says;
    /// with `accessLog`, each answered request is logged (``AccessLog``); with `tls`, the port
    /// speaks HTTPS.
    package static func http1(
        answering route: some PipelineRoute, serverName: String?, executor: EventLoopTaskExecutor,
        inFlight: PipelineAnswersInFlight,
        crossOrigin: CrossOriginPolicy? = nil, lifecycle: ServerLifecycle, accessLog: Bool = false,
        tls: TLSCertificates? = nil
    ) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            PipelineHTTP1Channel(
                responder: responder, route: route, executor: executor, serverName: serverName, inFlight: inFlight,
                crossOrigin: crossOrigin,
                lifecycle: lifecycle, accessLog: accessLog, tls: tls)
        }
    }
}

extension APIError {
    /// The refusal of a body over a route's limit (Hummingbird's `413`, or `collect(upTo:)`
    /// overrun), a 400 as every other bad body is.
    package static var bodyTooLarge: APIError { .invalidArgument("the request body is too large") }

    /// The refusal of a request the HTTP/1.1 parser could not read: 431 for headers over
    /// ``FleetHTTPServer/maximumHeaderBytes`` (or too many of them), 400 naming the fault otherwise.
    package static func parseError(_ error: HTTPParserError) -> APIError {
        if error == .headerOverflow {
            return APIError(
                .invalidArgument,
                "the request headers are larger than \(FleetHTTPServer.maximumHeaderBytes) bytes or more than \(FleetHTTPServer.maximumHeaderFields) fields",
                status: .requestHeaderFieldsTooLarge)
        }
        return .invalidArgument("the request is not valid HTTP/1.1 (\(error))")
    }
}
