import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Locking
@testable import ServerHTTP
import Testing

/// ``PipelineRouteHandler`` on an embedded channel: what it passes on, and when it reads.
@Suite("Pipeline route handler")
struct PipelineRouteHandlerTests {
    /// Answers `GET /answered` with 200 and "answered"; leaves every other request.
    private struct AnsweredRoute: PipelineRoute {
        func match(_ head: HTTPRequest) -> String? { head.path == "/answered" ? "answered" : nil }
        func respond(to match: String) async -> PipelineAnswer {
            PipelineAnswer(status: .ok, headers: [:], body: ByteBuffer(string: match))
        }
    }

    /// Counts the reads that reach the socket's side of the pipeline.
    private final class ReadCounter: ChannelOutboundHandler {
        typealias OutboundIn = Never
        var reads = 0
        func read(context: ChannelHandlerContext) {
            reads += 1
            context.read()
        }
    }

    private func channel(inFlight: PipelineAnswersInFlight = .init()) throws -> (EmbeddedChannel, ReadCounter) {
        let counter = ReadCounter()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(counter)
        try channel.pipeline.syncOperations.addHandler(
            PipelineRouteHandler(route: AnsweredRoute(), executor: EventLoopTaskExecutor(), serverName: "test", inFlight: inFlight))
        return (channel, counter)
    }

    /// A client that sends without reading must not make answers pile up: the review's finding.
    @Test("reads are held while the channel is not writable, and passed on once it is")
    func readsWaitForWritability() throws {
        let (channel, counter) = try channel()
        channel.read()
        #expect(counter.reads == 1)
        channel.isWritable = false
        channel.read()
        channel.read()
        #expect(counter.reads == 1)
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        #expect(counter.reads == 2)
        channel.pipeline.fireChannelWritabilityChanged()
        #expect(counter.reads == 2, "one held read is passed on once")
    }

    @Test("a request the route does not match goes on unchanged, body and all")
    func declinedRequestPassesOn() throws {
        let (channel, _) = try channel()
        let head = HTTPRequest(method: .post, scheme: nil, authority: "x", path: "/answered", headerFields: [.contentLength: "2"])
        try channel.writeInbound(HTTPRequestPart.head(head))
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "{}")))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == .head(head))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == .body(ByteBuffer(string: "{}")))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == .end(nil))
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
