import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1.1 child channel with a ``PipelineRoute`` in front of the router.
///
/// The lifecycle's deadlines close connections of slow and idle clients
/// (``ConnectionDeadlines``), and while the server drains every answer closes its connection.
/// With certificates, it speaks TLS (``TLSCertificates``).
///
/// The pipeline is Hummingbird's own (`HTTP1Channel`) with ``PipelineRouteHandler`` just after
/// NIO's HTTP/1.1 codec: the route's requests and answers skip the conversion to HTTP types and
/// Hummingbird's handlers, and the handler keeps answers in request order whichever side gives
/// them.
struct PipelineHTTP1Channel<Route: PipelineRoute>: HTTPChannelHandler {
    let responder: HTTPChannelHandler.Responder
    let route: Route
    let executor: EventLoopTaskExecutor
    let serverName: String?
    let inFlight: PipelineAnswersInFlight
    let crossOrigin: CrossOriginPolicy?
    let lifecycle: ServerLifecycle
    let accessLog: Bool
    let tls: TLSCertificates?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<
        NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>
    > {
        channel.eventLoop.makeCompletedFuture {
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = FleetHTTPServer.maximumHeaderBytes
            limits.maxHeaderListSize = FleetHTTPServer.maximumHeaderBytes
            limits.maxHeaderFieldCount = FleetHTTPServer.maximumHeaderFields
            let pipeline = channel.pipeline.syncOperations
            let deadlines = ConnectionDeadlines(lifecycle: lifecycle)
            try pipeline.addHandler(deadlines.rawBytesHandler)
            if let tls { try pipeline.addHandler(tls.serverHandler(for: .http1)) }
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false,
                withErrorHandling: false,
                withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(),
                withDecoderLimitConfiguration: limits
            )
            try pipeline.addHandler(deadlines.requestsHandler)
            if accessLog { try pipeline.addHandler(AccessLog(logger: logger)) }
            try pipeline.addHandler(
                PipelineRouteHandler(
                    route: route, executor: executor, serverName: serverName, inFlight: inFlight,
                    crossOrigin: crossOrigin, lifecycle: lifecycle))
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: tls != nil))
            try pipeline.addHandler(ParseErrorJSONHandler())
            try pipeline.addHandler(HTTPConnectionStateHandler(logger: logger))
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value asyncChannel: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}
