import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1

/// A route answered inside the channel pipeline, on the event loop that read the request, just
/// after NIO's HTTP/1.1 codec, before Hummingbird's handlers, async channel and router see it.
///
/// For a server's one hot route, where handing each request to Hummingbird (the conversion to
/// HTTP types, the connection-state handler, the async channel's inbound stream and outbound
/// writer, the router, the request context) costs a noticeable share of the work itself. A
/// request the route does not ``match(_:)`` goes on to Hummingbird unchanged, so the router keeps
/// every other route, its 404s and 405s.
package protocol PipelineRoute: Sendable {
    /// What the route read from a request head it answers.
    associatedtype Match: Sendable

    /// The most body bytes the route reads. A request that announces more, or sends its body
    /// in chunks, is left to the router, which answers it as before. `0` (the default): only
    /// requests without a body are the route's.
    var maximumBodyBytes: Int { get }

    /// What to answer `head`, sent by `client`, with, or `nil` to leave the request to the
    /// router. Called on the event loop: read the head, do no I/O.
    func match(_ head: HTTPRequestHead, from client: SocketAddress?) -> Match?

    /// The answer to a matched request with `body`, given without a task when nothing on the
    /// way would wait (no I/O but what returns at once, or completes a promise of `eventLoop`);
    /// `nil` to have ``respond(to:body:)`` give it. Called on `eventLoop`, the channel's.
    func respondWithoutWaiting(to match: Match, body: ByteBuffer, on eventLoop: any EventLoop)
        -> PipelineAnswerOrFuture?

    /// The answer to a matched request with `body`; any refusal is an answer too.
    func respond(to match: Match, body: ByteBuffer) async -> PipelineAnswer
}

extension PipelineRoute {
    /// Routes of requests without a body read none.
    package var maximumBodyBytes: Int { 0 }
}

/// How a pipeline route answers without a task: now, or when a future of the channel's event
/// loop completes (a write acknowledged once saved, say).
package enum PipelineAnswerOrFuture: Sendable {
    /// The answer, at once.
    case now(PipelineAnswer)
    /// The answer once the future succeeds; a failed future is answered 500.
    case later(EventLoopFuture<PipelineAnswer>)
}

/// A response as a pipeline route gives it: the head and the whole body.
package struct PipelineAnswer: Sendable {
    /// Status and headers (`Content-Length`, `Date` and `Server` are added when it is written).
    package var head: HTTPResponse
    /// The body.
    package var body: ByteBuffer

    /// An answer of `status` with `headers` and `body`.
    package init(status: HTTPResponse.Status, headers: HTTPFields, body: ByteBuffer) {
        self.head = HTTPResponse(status: status, headerFields: headers)
        self.body = body
    }

    /// The refusal `error` says, in its JSON shape.
    package init(_ error: APIError) {
        self.init(status: error.status, headers: error.headers, body: ByteBuffer(bytes: error.jsonBody()))
    }

    /// The same answer as a Hummingbird response, for a router that serves the route too.
    package var response: Response {
        Response(status: head.status, headers: head.headerFields, body: .init(byteBuffer: body))
    }
}
