import FleetTokenProvider
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers the requests a ``PipelineRoute`` matches, passing every other request on to
/// Hummingbird.
///
/// It sits after NIO's pipelining handler, which hands on one request at a time and holds the
/// next until the answer to the last is written, so answers leave in the order requests came
/// whichever side wrote them. A matched request is answered by a task that prefers the event
/// loop's executor, so it runs on the loop that read the request and writes from there.
///
/// The pipelining handler reads on as soon as an answer is written, whether or not the socket
/// took it; so that a client that sends without reading cannot pile answers up in memory, this
/// handler holds back reads while the channel is not writable (as Hummingbird's async writer
/// does for its own answers).
final class PipelineRouteHandler<Route: PipelineRoute>: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum State {
        /// Between requests.
        case idle
        /// Reading a request the route matched (its head read, its end not yet); whether it
        /// asked for the connection to close after the answer.
        case reading(Route.Match, closing: Bool)
        /// The route is answering; nothing more arrives until it has written.
        case answering
        /// Passing a request the route declined on to Hummingbird, until its end.
        case passing
    }

    private let route: Route
    private let executor: EventLoopTaskExecutor
    private let serverName: String?
    private let inFlight: PipelineAnswersInFlight
    private var state = State.idle
    /// A read asked for while the channel was not writable, to be passed on once it is.
    private var heldRead = false

    init(route: Route, executor: EventLoopTaskExecutor, serverName: String?, inFlight: PipelineAnswersInFlight) {
        self.route = route
        self.executor = executor
        self.serverName = serverName
        self.inFlight = inFlight
    }

    /// Passes a read on only while the channel can take more writes.
    func read(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            context.read()
        } else {
            heldRead = true
        }
    }

    /// Passes on the read held back, once the client has taken enough of the answers.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if heldRead, context.channel.isWritable {
            heldRead = false
            context.read()
        }
        context.fireChannelWritabilityChanged()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (state, unwrapInboundIn(data)) {
        case (.idle, .head(let head)):
            if let match = Self.hasNoBody(head) ? route.match(head) : nil {
                state = .reading(match, closing: Self.asksToClose(head))
            } else {
                state = .passing
                context.fireChannelRead(data)
            }
        case (.reading(let match, let closing), .end):
            state = .answering
            answer(match, closing: closing, context: context)
        case (.reading, .body):
            // A GET the route matched has no body (see hasNoBody); nothing to keep.
            break
        case (.passing, .end):
            state = .idle
            context.fireChannelRead(data)
        default:
            context.fireChannelRead(data)
        }
    }

    /// Runs the route off the pipeline and writes its answer on the channel's loop.
    private func answer(_ match: Route.Match, closing: Bool, context: ChannelHandlerContext) {
        let loop = context.eventLoop
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        Task(executorPreference: executor) { [route, inFlight] in
            let answer = await inFlight.run { await route.respond(to: match) }
            if loop.inEventLoop {
                bound.value.handler.write(answer, closing: closing, context: bound.value.context)
            } else {
                loop.execute { bound.value.handler.write(answer, closing: closing, context: bound.value.context) }
            }
        }
    }

    private func write(_ answer: PipelineAnswer, closing: Bool, context: ChannelHandlerContext) {
        var head = answer.head
        head.headerFields[.contentLength] = String(answer.body.readableBytes)
        head.headerFields[.date] = HTTPDate.now
        if let serverName { head.headerFields[.server] = serverName }
        // Idle before the end goes out: writing it lets the pipelining handler hand on the
        // next request at once, from inside this call.
        state = .idle
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(answer.body)), promise: nil)
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if closing {
            // The output side only, as Hummingbird does: a full close with the client's unread
            // bytes still queued would reset the connection, and a client may lose the answer.
            let channel = context.channel
            written.whenComplete { _ in channel.close(mode: .output, promise: nil) }
        }
    }

    /// Whether the request says `Connection: close` (alone or among other options), after
    /// which the connection closes.
    private static func asksToClose(_ head: HTTPRequest) -> Bool {
        head.headerFields[values: .connection].contains { value in
            value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "close" }
        }
    }

    /// Whether the request announces no body: the routes answered here are `GET`s, and one
    /// with a body is left to the router.
    private static func hasNoBody(_ head: HTTPRequest) -> Bool {
        head.headerFields[.transferEncoding] == nil && (head.headerFields[.contentLength] ?? "0") == "0"
    }
}
