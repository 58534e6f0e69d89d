import FleetAuthLocking
import NIOCore
import NIOEmbedded
import NIOHTTP1
import TestSupport
import Testing

@testable import FleetAuthServerHTTP

/// ``PipelineRouteHandler`` on a testing channel: what it passes on, when it reads, and the order
/// of answers, whichever side gives them.
@Suite("Pipeline route handler")
struct PipelineRouteHandlerTests {
    /// Answers a request (but a `POST`) whose path starts `/answered`, with its path as the
    /// body, once the test opens the gate; leaves every other request.
    private struct GatedRoute: PipelineRoute {
        let calls = Locked<[String]>([])
        let gate = AsyncStream.makeStream(of: Void.self)
        /// The promises of `/answered/later…` answers, for the test to complete.
        let promises = Locked<[EventLoopPromise<PipelineAnswer>]>([])
        let maximumBodyBytes = 16

        func match(_ head: HTTPRequestHead, from _: SocketAddress?) -> String? {
            head.method != .POST && head.uri.hasPrefix("/answered") ? head.uri : nil
        }

        /// Answers `/answered/now…` at once (`/answered/now/echo` with the request's body),
        /// `/answered/later…` once the test completes its promise; any other waits for the gate.
        func respondWithoutWaiting(to match: String, body: ByteBuffer, on eventLoop: any EventLoop)
            -> PipelineAnswerOrFuture?
        {
            if match.hasPrefix("/answered/later") {
                calls.withLock { $0.append(match) }
                let promise = eventLoop.makePromise(of: PipelineAnswer.self)
                promises.withLock { $0.append(promise) }
                return .later(promise.futureResult)
            }
            guard match.hasPrefix("/answered/now") else { return nil }
            calls.withLock { $0.append(match) }
            return .now(
                PipelineAnswer(
                    status: .accepted, headers: [:],
                    body: match == "/answered/now/echo" ? body : ByteBuffer(string: match)))
        }

        func respond(to match: String, body _: ByteBuffer) async -> PipelineAnswer {
            calls.withLock { $0.append(match) }
            for await _ in gate.stream { break }
            return PipelineAnswer(status: .ok, headers: [.contentType: "text/plain"], body: ByteBuffer(string: match))
        }

        /// Lets one answer go.
        func open() { gate.continuation.yield() }

        /// Waits until the route has been asked `count` times in all.
        func waitForCalls(_ count: Int) async throws {
            try await waitUntil("the route was asked \(count) times") { calls.withLock { $0.count } >= count }
            #expect(calls.withLock { $0.count } == count)
        }
    }

    /// Counts the reads that reach the socket's side of the pipeline.
    private final class ReadCounter: ChannelOutboundHandler, Sendable {
        typealias OutboundIn = Never
        private let count = Locked(0)
        var reads: Int { count.withLock { $0 } }
        func read(context: ChannelHandlerContext) {
            count.withLock { $0 += 1 }
            context.read()
        }
    }

    /// A slow socket, once told to be: holds each write's promise until the test lets the
    /// writes finish.
    private final class HeldWrites: ChannelOutboundHandler, Sendable {
        typealias OutboundIn = Any
        let holding = Locked(false)
        private let held = Locked<[EventLoopPromise<Void>]>([])
        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            guard holding.withLock({ $0 }) else { return context.write(data, promise: promise) }
            let mine = context.eventLoop.makePromise(of: Void.self)
            context.write(data, promise: nil)
            if let promise { mine.futureResult.cascade(to: promise) }
            held.withLock { $0.append(mine) }
        }
        func finish() {
            for promise in held.withLock({ held in
                defer { held = [] }; return held
            }) { promise.succeed() }
        }
    }

    /// Records the events that get past the handler, as Hummingbird's handlers would see them.
    private final class EventRecorder: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        private let recorded = Locked<[String]>([])
        var events: [String] { recorded.withLock { $0 } }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            context.fireChannelRead(data)
        }
        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            recorded.withLock { $0.append(event is ChannelShouldQuiesceEvent ? "quiesce" : "\(event)") }
        }
    }

    private struct Harness {
        let channel: NIOAsyncTestingChannel
        let route: GatedRoute
        let reads: ReadCounter
        let events: EventRecorder
        let writes = HeldWrites()

        init() async throws {
            route = GatedRoute()
            reads = ReadCounter()
            events = EventRecorder()
            channel = NIOAsyncTestingChannel()
            // The handlers are made and added on the channel's loop: a handler is not Sendable.
            try await channel.eventLoop.submit { [channel, reads, writes, route, events] in
                try channel.pipeline.syncOperations.addHandlers(
                    reads, writes,
                    PipelineRouteHandler(
                        route: route, executor: EventLoopTaskExecutor(), serverName: "test", inFlight: .init()), events)
            }.get()
        }

        func send(_ uri: String, method: HTTPMethod = .GET, version: HTTPVersion = .http1_1, headers: HTTPHeaders = [:])
            async throws
        {
            try await channel.writeInbound(
                HTTPServerRequestPart.head(
                    HTTPRequestHead(version: version, method: method, uri: uri, headers: headers)))
            try await channel.writeInbound(HTTPServerRequestPart.end(nil))
        }

        /// Sends a request the route answers after the gate opens, and waits until it is asked.
        func sendAwaited(_ uri: String, call: Int = 1) async throws {
            try await send(uri)
            try await route.waitForCalls(call)
        }

        /// The head and body of the next answer the handler writes, waiting for it.
        func answer() async throws -> (head: HTTPResponseHead, body: String) {
            guard case .head(let head) = try await channel.waitForOutboundWrite(as: HTTPServerResponsePart.self),
                case .body(.byteBuffer(let body)) = try await channel.waitForOutboundWrite(
                    as: HTTPServerResponsePart.self),
                case .end = try await channel.waitForOutboundWrite(as: HTTPServerResponsePart.self)
            else { throw AnswerShapeError() }
            return (head, String(buffer: body))
        }

        /// What got past the handler to Hummingbird's side.
        func passedOn() async throws -> [HTTPServerRequestPart] {
            var parts: [HTTPServerRequestPart] = []
            while let part = try await channel.readInbound(as: HTTPServerRequestPart.self) { parts.append(part) }
            return parts
        }

        func read() async throws {
            try await channel.testingEventLoop.executeInContext { channel.read() }
        }

        /// Fires an event into the pipeline on the channel's loop, done when the call returns.
        func fire(_ event: @escaping @Sendable (ChannelPipeline) -> Void) async throws {
            try await channel.testingEventLoop.executeInContext { event(channel.pipeline) }
        }
    }

    private struct AnswerShapeError: Error {}

    /// A client that sends without reading must not make answers pile up.
    @Test("reads are held while the channel is not writable, and passed on once it is")
    func readsWaitForWritability() async throws {
        let harness = try await Harness()
        try await harness.read()
        #expect(harness.reads.reads == 1)
        harness.channel.isWritable = false
        try await harness.read()
        try await harness.read()
        #expect(harness.reads.reads == 1)
        harness.channel.isWritable = true
        try await harness.fire { $0.fireChannelWritabilityChanged() }
        #expect(harness.reads.reads == 2)
        try await harness.fire { $0.fireChannelWritabilityChanged() }
        #expect(harness.reads.reads == 2, "one held read is passed on once")
    }

    @Test("a body within the route's limit is read whole, from every part, and handed to the route")
    func bodyIsHandedToTheRoute() async throws {
        let harness = try await Harness()
        let head = HTTPRequestHead(
            version: .http1_1, method: .PUT, uri: "/answered/now/echo", headers: ["content-length": "16"])
        try await harness.channel.writeInbound(HTTPServerRequestPart.head(head))
        for part in ["{\"a\":", "1234", "5678}", "\n"] {
            try await harness.channel.writeInbound(HTTPServerRequestPart.body(ByteBuffer(string: part)))
        }
        try await harness.channel.writeInbound(HTTPServerRequestPart.end(nil))
        let answer = try await harness.answer()
        #expect(answer.head.status == .accepted && answer.body == "{\"a\":12345678}\n")
        #expect(try await harness.passedOn().isEmpty)
    }

    @Test(
        "a body over the route's limit, or one sent in chunks, goes on to Hummingbird",
        arguments: [
            HTTPHeaders([("content-length", "17")]), HTTPHeaders([("transfer-encoding", "chunked")]),
            HTTPHeaders([("content-length", "x")]),
        ])
    func bodiesTheRouteDoesNotReadPassOn(headers: HTTPHeaders) async throws {
        let harness = try await Harness()
        let head = HTTPRequestHead(version: .http1_1, method: .PUT, uri: "/answered/now/echo", headers: headers)
        try await harness.channel.writeInbound(HTTPServerRequestPart.head(head))
        try await harness.channel.writeInbound(HTTPServerRequestPart.body(ByteBuffer(string: "{}")))
        try await harness.channel.writeInbound(HTTPServerRequestPart.end(nil))
        #expect(try await harness.passedOn() == [.head(head), .body(ByteBuffer(string: "{}")), .end(nil)])
        #expect(harness.route.calls.withLock { $0 }.isEmpty)
    }

    @Test("an answer given later leaves when its future completes, and a request sent meanwhile waits for it")
    func answersGivenLater() async throws {
        let harness = try await Harness()
        try await harness.send("/answered/later/1")
        try await harness.send("/answered/now/2")
        #expect(
            harness.route.calls.withLock { $0 } == ["/answered/later/1"], "a request overtook the answer given later")
        #expect(try await harness.channel.readOutbound(as: HTTPServerResponsePart.self) == nil)
        let promise = try #require(harness.route.promises.withLock { $0.first })
        promise.succeed(PipelineAnswer(status: .ok, headers: [:], body: ByteBuffer(string: "saved")))
        #expect(try await harness.answer().body == "saved")
        #expect(try await harness.answer().body == "/answered/now/2")
    }

    @Test("an answer whose future fails is a 500 in the JSON error shape")
    func failedLaterAnswerIsInternal() async throws {
        let harness = try await Harness()
        try await harness.send("/answered/later/1")
        let promise = try #require(harness.route.promises.withLock { $0.first })
        promise.fail(CancellationError())
        let (head, body) = try await harness.answer()
        #expect(head.status == .internalServerError && body.contains("\"INTERNAL\""))
    }

    @Test("a request the route does not match goes on unchanged, body and all")
    func declinedRequestPassesOn() async throws {
        let harness = try await Harness()
        let head = HTTPRequestHead(version: .http1_1, method: .POST, uri: "/answered", headers: ["content-length": "2"])
        try await harness.channel.writeInbound(HTTPServerRequestPart.head(head))
        try await harness.channel.writeInbound(HTTPServerRequestPart.body(ByteBuffer(string: "{}")))
        try await harness.channel.writeInbound(HTTPServerRequestPart.end(nil))
        #expect(try await harness.passedOn() == [.head(head), .body(ByteBuffer(string: "{}")), .end(nil)])
        #expect(harness.route.calls.withLock { $0 }.isEmpty)
    }

    /// Holding reads during every answer made the socket's registration change twice a request.
    @Test("reads go on while an answer is computed, and the answer has its headers")
    func readsGoOnDuringAnAnswer() async throws {
        let harness = try await Harness()
        try await harness.sendAwaited("/answered/1")
        try await harness.read()
        #expect(harness.reads.reads == 1, "the read did not go on during the answer")
        harness.route.open()
        let (head, body) = try await harness.answer()
        #expect(head.status == .ok && body == "/answered/1")
        #expect(head.headers["content-length"] == ["11"] && head.headers["server"] == ["test"])
        #expect(head.headers["content-type"] == ["text/plain"] && head.headers["date"].count == 1)
        #expect(head.headers["connection"].isEmpty)
        #expect(try await harness.passedOn().isEmpty)
    }

    @Test("a request that arrives during an answer waits for it, and reads stop until it is handled")
    func pipelinedRequestWaits() async throws {
        let harness = try await Harness()
        try await harness.sendAwaited("/answered/1")
        try await harness.send("/answered/2")
        try await harness.send("/healthz")
        try await harness.read()
        #expect(harness.reads.reads == 0, "a read went on while a request waited")
        #expect(harness.route.calls.withLock { $0 } == ["/answered/1"])
        harness.route.open()
        #expect(try await harness.answer().body == "/answered/1")
        try await harness.route.waitForCalls(2)
        #expect(try await harness.passedOn().isEmpty, "the request after the second went on before its answer")
        harness.route.open()
        #expect(try await harness.answer().body == "/answered/2")
        // The waiting request goes on once the answer is written, on the channel's loop.
        var passed: [HTTPServerRequestPart] = []
        try await waitUntil("the waiting request was passed on") {
            passed += try await harness.passedOn()
            return passed.count >= 2
        }
        #expect(
            passed.count == 2
                && passed.first.map { if case .head(let head) = $0 { head.uri == "/healthz" } else { false } } == true)
        #expect(harness.reads.reads == 1, "the held read went on once nothing waited")
    }

    /// Hummingbird answers its requests in order; one the route answered before them would
    /// overtake them.
    @Test("while Hummingbird owes an answer, matching requests go to Hummingbird too")
    func requestsAfterAPassedOneArePassedOn() async throws {
        let harness = try await Harness()
        try await harness.send("/healthz")
        try await harness.send("/answered/1")
        #expect(try await harness.passedOn().count == 4)
        #expect(harness.route.calls.withLock { $0 }.isEmpty)
        for part in [HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)), .end(nil)] {
            try await harness.channel.writeOutbound(part)
        }
        #expect(try await harness.passedOn().isEmpty)
        try await harness.channel.writeOutbound(HTTPServerResponsePart.end(nil))
        try await harness.sendAwaited("/answered/2")
        #expect(harness.route.calls.withLock { $0 } == ["/answered/2"])
    }

    @Test("an answer given at once is written before the next request is read, and in order after one that waited")
    func answersGivenAtOnce() async throws {
        let harness = try await Harness()
        try await harness.send("/answered/now/1")
        let first = try await harness.answer()
        #expect(first.head.status == .accepted && first.body == "/answered/now/1")
        try await harness.sendAwaited("/answered/1", call: 2)
        try await harness.send("/answered/now/2")
        try await harness.send("/answered/now/3")
        #expect(harness.route.calls.withLock { $0.count } == 2, "an answer given at once overtook one that waited")
        harness.route.open()
        #expect(try await harness.answer().body == "/answered/1")
        #expect(try await harness.answer().body == "/answered/now/2")
        #expect(try await harness.answer().body == "/answered/now/3")
        #expect(try await harness.passedOn().isEmpty)
    }

    /// Hummingbird never saw the route's requests: on graceful shutdown it closes at once, and
    /// would cut off an answer still on its way out.
    @Test("graceful shutdown goes on only once the route's last answer has left")
    func quiesceWaitsForTheLastWrite() async throws {
        let harness = try await Harness()
        harness.writes.holding.withLock { $0 = true }
        try await harness.send("/answered/now/1")
        _ = try await harness.answer()
        try await harness.fire { $0.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent()) }
        #expect(harness.events.events.isEmpty, "the event went on before the answer left")
        try await harness.channel.testingEventLoop.executeInContext { harness.writes.finish() }
        #expect(harness.events.events == ["quiesce"])
    }

    /// Each answer given at once is a signature; a burst of them must leave the event loop to
    /// other connections now and then.
    @Test("of one read's requests, at most answersAtOnceInARow are answered at once; the next waits its turn")
    func burstsAreCapped() async throws {
        let harness = try await Harness()
        let cap = PipelineRouteHandler<GatedRoute>.answersAtOnceInARow
        // One read: the parts of every request, then no read-complete.
        try await harness.fire { pipeline in
            for index in 1...cap + 1 {
                let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/answered/now/\(index)")
                pipeline.fireChannelRead(HTTPServerRequestPart.head(head))
                pipeline.fireChannelRead(HTTPServerRequestPart.end(nil))
            }
        }
        for index in 1...cap {
            let answer = try await harness.answer()
            #expect(answer.head.status == .accepted && answer.body == "/answered/now/\(index)")
        }
        try await harness.route.waitForCalls(cap + 1)
        harness.route.open()
        let waited = try await harness.answer()
        #expect(
            waited.head.status == .ok && waited.body == "/answered/now/\(cap + 1)",
            "the request after the cap was not answered by a task")
        try await harness.fire { $0.fireChannelReadComplete() }
        try await harness.send("/answered/now/next")
        #expect(try await harness.answer().head.status == .accepted, "a new read did not start a new count")
    }

    @Test("graceful shutdown during an answer goes on after it, and the route answers nothing more")
    func quiesceWaitsForTheAnswer() async throws {
        let harness = try await Harness()
        try await harness.sendAwaited("/answered/1")
        try await harness.fire { $0.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent()) }
        #expect(harness.events.events.isEmpty, "the event overtook the answer")
        harness.route.open()
        #expect(try await harness.answer().body == "/answered/1")
        #expect(harness.events.events == ["quiesce"])
        try await harness.send("/answered/2")
        #expect(try await harness.passedOn().count == 2, "a request after shutdown began was answered here")
    }

    @Test("an HTTP/1.0 request without keep-alive is answered in HTTP/1.0 with Connection: close")
    func http10ClosesAfterTheAnswer() async throws {
        let harness = try await Harness()
        try await harness.send("/answered/1", version: .http1_0)
        try await harness.route.waitForCalls(1)
        harness.route.open()
        let (head, _) = try await harness.answer()
        #expect(head.version == .http1_0 && head.headers["connection"] == ["close"])
    }

    @Test("an HTTP/1.0 request with keep-alive is answered with Connection: keep-alive, and the connection stays")
    func http10KeepAlive() async throws {
        let harness = try await Harness()
        try await harness.send("/answered/now/1", version: .http1_0, headers: ["connection": "keep-alive"])
        let (head, _) = try await harness.answer()
        #expect(head.version == .http1_0 && head.headers["connection"] == ["keep-alive"])
        try await harness.send("/answered/now/2", version: .http1_0, headers: ["connection": "keep-alive"])
        #expect(try await harness.answer().body == "/answered/now/2")
    }

    @Test("draining waits for an answer in flight, and returns at once when there is none")
    func drainWaitsForAnswers() async throws {
        let inFlight = PipelineAnswersInFlight()
        await inFlight.drained()
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let (release, released) = AsyncStream.makeStream(of: Void.self)
        let finished = Locked(false)
        let answering = Task {
            await inFlight.run {
                start.yield()
                for await _ in release { break }
                finished.withLock { $0 = true }
            }
        }
        for await _ in started { break }
        let drained = Task {
            await inFlight.drained()
            return finished.withLock { $0 }
        }
        try await Task.sleep(for: .milliseconds(50))
        released.yield()
        await answering.value
        #expect(await drained.value, "drained() returned before the answer finished")
    }
}
