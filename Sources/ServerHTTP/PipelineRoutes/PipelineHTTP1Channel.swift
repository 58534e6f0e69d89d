import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1.1 child channel with a ``PipelineRoute`` in front of the router.
///
/// The pipeline is Hummingbird's own (`HTTP1Channel`) but for two things: NIO's pipelining
/// handler is on, so that answers written by the route and by Hummingbird leave in request
/// order (it also closes the connection on graceful shutdown once the answer under way is
/// written); and ``PipelineRouteHandler`` sits just before the async channel, after
/// Hummingbird's connection-state handler, which so counts every request and answer.
struct PipelineHTTP1Channel<Route: PipelineRoute>: HTTPChannelHandler {
    let responder: HTTPChannelHandler.Responder
    let route: Route
    let executor: EventLoopTaskExecutor
    let serverName: String?
    let inFlight: PipelineAnswersInFlight

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>> {
        channel.eventLoop.makeCompletedFuture {
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = FleetHTTPServer.maximumHeaderBytes
            limits.maxHeaderListSize = FleetHTTPServer.maximumHeaderBytes
            limits.maxHeaderFieldCount = FleetHTTPServer.maximumHeaderFields
            let pipeline = channel.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: true,
                withErrorHandling: false,
                withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(),
                withDecoderLimitConfiguration: limits
            )
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(ParseErrorJSONHandler())
            try pipeline.addHandler(HTTPConnectionStateHandler(logger: logger))
            try pipeline.addHandler(PipelineRouteHandler(route: route, executor: executor, serverName: serverName, inFlight: inFlight))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value asyncChannel: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}
