import NIOCore

/// Makes the flushes of one HTTP/2 connection in one turn of its event loop into one, at the end
/// of the turn. Calls on the same connection are answered together when the commit they
/// waited for ends; without it each answer would leave in a system call of its own.
///
/// It sits between the socket and swift-nio-http2's handler, which also flushes on its own
/// (settings acknowledgements, pings, the connection handler's window updates). What waits for the end of the turn still leaves when the connection is closed
/// first (a graceful shutdown closes it as soon as its last answer is written).
final class FlushCoalescingHandler: ChannelOutboundHandler {
    typealias OutboundIn = NIOAny

    private var flushScheduled = false

    func flush(context: ChannelHandlerContext) {
        guard !flushScheduled else { return }
        flushScheduled = true
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.execute {
            let (handler, context) = bound.value
            guard handler.flushScheduled else { return }
            handler.flushScheduled = false
            context.flush()
        }
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if flushScheduled {
            flushScheduled = false
            context.flush()
        }
        context.close(mode: mode, promise: promise)
    }
}
