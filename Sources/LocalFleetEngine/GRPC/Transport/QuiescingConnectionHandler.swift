import NIOCore
import NIOHTTP2

/// Ends one HTTP/2 connection of the gRPC door gracefully: when the server quiesces, it tells
/// the client with a GOAWAY that no new call will be taken, and closes the connection once the
/// calls under way have ended (at once when there are none). Without it a client that keeps
/// its connection open, as gRPC clients do, would hold the server's shutdown forever.
///
/// The connection's stream initializer reports each stream (``streamOpened(_:)``): with the
/// inline multiplexer swift-nio-http2 sends no stream events down the connection's pipeline.
final class QuiescingConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = Never
    typealias OutboundOut = HTTP2Frame

    private var context: ChannelHandlerContext?
    private var openStreams = 0
    private var quiescing = false

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Counts `stream` among the calls under way until it closes. Call on the connection's
    /// event loop, from its stream initializer.
    func streamOpened(_ stream: any Channel) {
        openStreams += 1
        let handler = NIOLoopBound(self, eventLoop: stream.eventLoop)
        stream.closeFuture.whenComplete { _ in handler.value.streamClosed() }
    }

    private func streamClosed() {
        openStreams -= 1
        if quiescing, openStreams == 0 { context?.close(promise: nil) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else { return context.fireUserInboundEventTriggered(event) }
        quiescing = true
        let goAway = HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: .maxID, errorCode: .noError, opaqueData: nil))
        context.writeAndFlush(wrapOutboundOut(goAway), promise: nil)
        if openStreams == 0 { context.close(promise: nil) }
    }
}
