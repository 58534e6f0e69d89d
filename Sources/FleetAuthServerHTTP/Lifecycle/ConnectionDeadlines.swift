import NIOCore
import NIOHTTP1

/// Closes a connection whose client is too slow or has gone quiet: one that began a request
/// but has not finished its head within the lifecycle's `headerTimeout`, or that has waited
/// between requests for its `idleTimeout`. A request being answered is never cut short.
///
/// It sees the connection from both sides of NIO's HTTP/1.1 codec, as two handlers sharing
/// one clock: ``rawBytesHandler`` before the decoder sees a request begin (its first bytes),
/// ``requestsHandler`` after it sees the head complete and the answer's end, whichever part
/// of the server (the router or a pipeline route) writes it. Both live on the channel's loop.
final class ConnectionDeadlines {
    private enum State {
        /// Between requests: the idle deadline runs.
        case idle
        /// A request has begun and its head is not complete: the head deadline runs.
        case awaitingHead
        /// This many requests are read but not yet answered: no deadline runs.
        case serving(Int)
    }

    private let lifecycle: ServerLifecycle
    private var state = State.idle
    private var deadline: Scheduled<Void>?

    init(lifecycle: ServerLifecycle) {
        self.lifecycle = lifecycle
    }

    /// The handler to put before the HTTP decoder.
    var rawBytesHandler: some ChannelInboundHandler { RawBytesWatcher(deadlines: self) }

    /// The handler to put just after the HTTP codec.
    var requestsHandler: some ChannelDuplexHandler { RequestsWatcher(deadlines: self) }

    fileprivate func opened(_ context: ChannelHandlerContext) {
        state = .idle
        schedule(lifecycle.idleTimeout, context)
    }

    fileprivate func bytesArrived(_ context: ChannelHandlerContext) {
        guard case .idle = state else { return }
        state = .awaitingHead
        schedule(lifecycle.headerTimeout, context)
    }

    fileprivate func headRead() {
        switch state {
        case .idle, .awaitingHead: state = .serving(1)
        case .serving(let count): state = .serving(count + 1)
        }
        deadline?.cancel()
        deadline = nil
    }

    fileprivate func answerWritten(_ context: ChannelHandlerContext) {
        guard case .serving(let count) = state else { return }
        if count > 1 {
            state = .serving(count - 1)
        } else {
            state = .idle
            schedule(lifecycle.idleTimeout, context)
        }
    }

    fileprivate func closed() {
        deadline?.cancel()
        deadline = nil
    }

    private func schedule(_ timeout: Duration, _ context: ChannelHandlerContext) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) { [weak self] in
            self?.deadline = nil
            channel.close(promise: nil)
        }
    }
}

/// Tells the deadlines when a connection opens, and when a request's first bytes arrive.
private final class RawBytesWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let deadlines: ConnectionDeadlines

    init(deadlines: ConnectionDeadlines) {
        self.deadlines = deadlines
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { deadlines.opened(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        deadlines.opened(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        deadlines.bytesArrived(context)
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadlines.closed()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadlines.closed()
    }
}

/// Tells the deadlines when a request's head is complete and when an answer has been written.
private final class RequestsWatcher: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let deadlines: ConnectionDeadlines

    init(deadlines: ConnectionDeadlines) {
        self.deadlines = deadlines
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { deadlines.headRead() }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { deadlines.answerWritten(context) }
        context.write(data, promise: promise)
    }
}
