import FleetAuthCodecs
import HTTPTypes
import NIOCore
import NIOHTTP1

/// Answers the requests a ``PipelineRoute`` matches straight after NIO's HTTP/1.1 codec, and
/// passes every other request on to Hummingbird's handlers above it.
///
/// Answers leave in request order. What arrives while the route is reading or answering a
/// request (the next pipelined request, an error, an event such as half-closure or graceful
/// shutdown) waits here until the answer is written. While Hummingbird owes answers to requests
/// passed on, every request is passed on: Hummingbird answers its requests in order, and its
/// router serves the route's paths too. Errors and events go on to Hummingbird only once the
/// route's last answer has left, since Hummingbird, which never saw the route's requests, may
/// close the connection on them at once.
///
/// Reads go on while an answer is computed, so that a client waiting for each answer costs no
/// change to the socket's registration; they stop while something waits here, and while the
/// channel is not writable, so that a client that sends without reading cannot pile answers up.
/// Of a burst of pipelined requests, at most ``answersAtOnceInARow`` are answered inside one
/// read: the rest wait their turn on the event loop beside other connections.
///
/// While the server drains (``ServerLifecycle/isDraining``), every answer, the route's and
/// Hummingbird's, says `Connection: close` and closes the connection's output once written,
/// so that clients take their next request to a new connection (another replica's, behind a
/// balancer) rather than meet this one closing.
///
/// Graceful shutdown (`ChannelShouldQuiesceEvent`) goes on to Hummingbird's connection-state
/// handler once the route's answer under way is written; that handler closes the connection when
/// its own answers are written, and the route answers nothing after it.
final class PipelineRouteHandler<Route: PipelineRoute>: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The most requests of one read answered without a task, one after another, before the
    /// next waits its turn on the event loop (a token's is a signature, about 0.2 ms).
    static var answersAtOnceInARow: Int { 16 }

    private enum State {
        /// Between requests.
        case idle
        /// Reading a request the route matched: its head read, and its body so far (`nil`:
        /// none yet), its end not yet.
        case reading(Route.Match, Reply, ByteBuffer?)
        /// The route is answering.
        case answering
        /// Passing a request the route declined on to Hummingbird, until its end.
        case passing
        /// The connection closes after the route's last answer, or has closed: later requests
        /// are dropped.
        case closed
    }

    /// How to answer a request the route matched: in its HTTP version, whether the connection
    /// stays open after the answer, with which CORS headers, and under which trace its lines
    /// are logged.
    private struct Reply {
        let version: HTTPVersion
        let keepAlive: Bool
        let crossOrigin: HTTPFields?
        let trace: RequestTrace?
    }

    /// An error or event on its way to Hummingbird.
    private enum Signal {
        case error(any Error)
        case event(Any)
    }

    /// Something that arrived while the route was reading or answering a request.
    private enum Waiting {
        case part(HTTPServerRequestPart)
        case signal(Signal)
    }

    private let route: Route
    private let executor: EventLoopTaskExecutor
    private let serverName: String?
    private let inFlight: PipelineAnswersInFlight
    private let crossOrigin: CrossOriginPolicy?
    private let lifecycle: ServerLifecycle
    private var state = State.idle
    private var waiting = CircularBuffer<Waiting>()
    /// Requests passed on whose answers Hummingbird has not finished writing.
    private var answersOwedByHummingbird = 0
    /// Whether graceful shutdown has begun (the route answers no more requests).
    private var quiescing = false
    /// A read asked for while reads stop, to be passed on when they go on.
    private var heldRead = false
    /// The route's answers given without waiting since the last read ended.
    private var answeredAtOnce = 0
    /// The write of the route's last answer, which errors and events passed on wait for.
    private var lastAnswerWritten: EventLoopFuture<Void>?

    init(
        route: Route, executor: EventLoopTaskExecutor, serverName: String?, inFlight: PipelineAnswersInFlight,
        crossOrigin: CrossOriginPolicy? = nil, lifecycle: ServerLifecycle = ServerLifecycle()
    ) {
        self.route = route
        self.lifecycle = lifecycle
        self.executor = executor
        self.serverName = serverName
        self.inFlight = inFlight
        self.crossOrigin = crossOrigin
    }

    /// Passes a read on unless something waits here or the channel cannot take more writes.
    func read(context: ChannelHandlerContext) {
        if waiting.isEmpty, context.channel.isWritable {
            context.read()
        } else {
            heldRead = true
        }
    }

    /// Passes on the read held back, once the client has taken enough of the answers.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        resumeReading(context: context)
        context.fireChannelWritabilityChanged()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if isAnswering {
            waiting.append(.part(part))
        } else {
            handle(part, context: context)
            handleWaiting(context: context)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        answeredAtOnce = 0
        context.fireChannelReadComplete()
    }

    /// Holds an error that arrives during an answer; any other goes on, and ends the reading of
    /// a matched request (the parser's errors leave no end to wait for).
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch state {
        case .answering:
            waiting.append(.signal(.error(error)))
        case .reading:
            state = .idle
            pass(.error(error), context: context)
            handleWaiting(context: context)
        case .idle, .passing, .closed:
            pass(.error(error), context: context)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch state {
        case .reading, .answering: waiting.append(.signal(.event(event)))
        case .idle, .passing, .closed: pass(.event(event), context: context)
        }
    }

    /// Drops what waits: nothing more can be answered.
    func channelInactive(context: ChannelHandlerContext) {
        state = .closed
        waiting.removeAll()
        context.fireChannelInactive()
    }

    /// Counts the answers Hummingbird finishes and passes every write on; while the server
    /// drains, Hummingbird's answers close the connection as the route's do.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where lifecycle.isDraining:
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where answersOwedByHummingbird > 0:
            answersOwedByHummingbird -= 1
            guard lifecycle.isDraining, answersOwedByHummingbird == 0, case .idle = state else {
                return context.write(data, promise: promise)
            }
            state = .closed
            let channel = context.channel
            context.write(data, promise: promise)
            context.flush()
            channel.close(mode: .output, promise: nil)
        default:
            context.write(data, promise: promise)
        }
    }

    /// Whether the route is answering a request, so that what arrives must wait.
    private var isAnswering: Bool {
        if case .answering = state { true } else { false }
    }

    private func handle(_ part: HTTPServerRequestPart, context: ChannelHandlerContext) {
        switch (state, part) {
        case (.closed, _):
            break
        case (.idle, .head(let head)):
            if !quiescing, answersOwedByHummingbird == 0, Self.bodyFits(head, within: route.maximumBodyBytes),
                let match = route.match(head, from: context.channel.remoteAddress)
            {
                let keepAlive = head.isKeepAlive && !lifecycle.isDraining
                let trace = RequestTrace(
                    traceparent: head.headers.first(name: "traceparent"),
                    cloudTraceContext: head.headers.first(name: "x-cloud-trace-context"))
                let reply = Reply(
                    version: head.version, keepAlive: keepAlive, crossOrigin: crossOriginHeaders(for: head),
                    trace: trace)
                state = .reading(match, reply, nil)
            } else {
                state = .passing
                answersOwedByHummingbird += 1
                context.fireChannelRead(wrapInboundOut(part))
            }
        case (.reading(let match, let reply, let body), .end):
            state = .answering
            answer(match, body: body ?? ByteBuffer(), reply: reply, context: context)
        case (.reading(let match, let reply, let body), .body(var part)):
            // The parser holds the body to its Content-Length, which the route allowed.
            guard var body else {
                state = .reading(match, reply, part)
                break
            }
            state = .answering  // lets go of the state's copy, so that the body grows in place
            body.writeBuffer(&part)
            state = .reading(match, reply, body)
        case (.passing, .end):
            state = .idle
            context.fireChannelRead(wrapInboundOut(part))
        default:
            context.fireChannelRead(wrapInboundOut(part))
        }
    }

    /// Passes an error or an event on once the route's last answer has left (at once if it
    /// has); the route answers nothing after graceful shutdown begins.
    private func pass(_ signal: Signal, context: ChannelHandlerContext) {
        if case .event(let event) = signal, event is ChannelShouldQuiesceEvent { quiescing = true }
        let fire = {
            switch signal {
            case .error(let error): context.fireErrorCaught(error)
            case .event(let event): context.fireUserInboundEventTriggered(event)
            }
        }
        guard let lastAnswerWritten else { return fire() }
        lastAnswerWritten.assumeIsolated().whenComplete { _ in fire() }
    }

    /// Writes the route's answer at once, or once its future completes, when it can be given
    /// without a task (up to ``answersAtOnceInARow`` in one read); else runs the route off the
    /// pipeline, writes its answer on the channel's loop and goes on with what arrived meanwhile.
    private func answer(_ match: Route.Match, body: ByteBuffer, reply: Reply, context: ChannelHandlerContext) {
        let atOnce =
            answeredAtOnce < Self.answersAtOnceInARow
            ? RequestTrace.$current.withValue(reply.trace) {
                route.respondWithoutWaiting(to: match, body: body, on: context.eventLoop)
            }
            : nil
        if let answer = atOnce {
            answeredAtOnce += 1
            switch answer {
            case .now(let answer):
                write(answer, reply: reply, context: context)
            case .later(let future):
                future.hop(to: context.eventLoop).assumeIsolated().whenComplete { result in
                    self.writeLater((try? result.get()) ?? PipelineAnswer(.internal), reply: reply, context: context)
                }
            }
            return
        }
        let loop = context.eventLoop
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        Task(executorPreference: executor) { [route, inFlight] in
            let answer = await RequestTrace.$current.withValue(reply.trace) {
                await inFlight.run { await route.respond(to: match, body: body) }
            }
            let write: @Sendable () -> Void = {
                let (handler, context) = bound.value
                handler.writeLater(answer, reply: reply, context: context)
            }
            if loop.inEventLoop { write() } else { loop.execute(write) }
        }
    }

    /// Writes an answer that was not given at once, unless the connection closed meanwhile, and
    /// goes on with what arrived while it was computed.
    private func writeLater(_ answer: PipelineAnswer, reply: Reply, context: ChannelHandlerContext) {
        guard isAnswering else { return }
        write(answer, reply: reply, context: context)
        handleWaiting(context: context)
    }

    /// Writes an answer; the route is idle again after it, unless the connection closes.
    private func write(_ answer: PipelineAnswer, reply: Reply, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        for field in answer.head.headerFields {
            headers.add(name: field.name.canonicalName, value: field.value)
        }
        for field in reply.crossOrigin ?? [:] {
            headers.add(name: field.name.canonicalName, value: field.value)
        }
        headers.replaceOrAdd(name: "content-length", value: String(answer.body.readableBytes))
        headers.replaceOrAdd(name: "date", value: HTTPDate.now)
        if let serverName { headers.replaceOrAdd(name: "server", value: serverName) }
        if !reply.keepAlive {
            headers.replaceOrAdd(name: "connection", value: "close")
        } else if reply.version == .http1_0 {
            headers.replaceOrAdd(name: "connection", value: "keep-alive")
        }
        let head = HTTPResponseHead(
            version: reply.version, status: HTTPResponseStatus(statusCode: answer.head.status.code), headers: headers)
        state = reply.keepAlive ? .idle : .closed
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(answer.body))), promise: nil)
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        lastAnswerWritten = written
        if !reply.keepAlive {
            // The output side only, as Hummingbird does: a full close with the client's unread
            // bytes still queued would reset the connection, and a client may lose the answer.
            let channel = context.channel
            written.whenComplete { _ in channel.close(mode: .output, promise: nil) }
        }
    }

    /// Handles, in order, what arrived during an answer, until the route starts answering
    /// again; then lets reads go on if nothing waits.
    private func handleWaiting(context: ChannelHandlerContext) {
        var passedOn = false
        while !isAnswering, let next = waiting.popFirst() {
            switch next {
            case .part(let part): handle(part, context: context)
            case .signal(let signal): pass(signal, context: context)
            }
            passedOn = true
        }
        // Hummingbird's async channel hands on what it was given at the end of a read.
        if passedOn { context.fireChannelReadComplete() }
        resumeReading(context: context)
    }

    private func resumeReading(context: ChannelHandlerContext) {
        if heldRead, waiting.isEmpty, context.channel.isWritable {
            heldRead = false
            context.read()
        }
    }

    /// The CORS headers the answer to `head` gets, when the policy covers its path.
    private func crossOriginHeaders(for head: HTTPRequestHead) -> HTTPFields? {
        guard let crossOrigin, crossOrigin.covers(head.uri) else { return nil }
        // The Host is read only for a request with an Origin (an app's have none).
        let verdict = crossOrigin.verdict(
            origin: head.headers.first(name: "origin"), host: head.headers.first(name: "host"))
        return crossOrigin.answerHeaders(for: verdict)
    }

    /// Whether the request's body, if any, is announced by `Content-Length` and at most
    /// `maximum` bytes: a route reads no chunked body, and one too large is left to the router.
    private static func bodyFits(_ head: HTTPRequestHead, within maximum: Int) -> Bool {
        guard !head.headers.contains(name: "transfer-encoding") else { return false }
        guard let length = head.headers.first(name: "content-length") else { return true }
        return Int(length).map { (0...maximum).contains($0) } ?? false
    }
}
