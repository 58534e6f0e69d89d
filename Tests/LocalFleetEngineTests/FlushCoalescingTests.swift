import NIOCore
import NIOEmbedded
import Testing

@testable import LocalFleetEngine

/// The gRPC door's connections send the answers of one turn of the event loop in one flush.
struct FlushCoalescingTests {
    @Test func flushesOfOneTurnLeaveTogetherWhenTheTurnEnds() throws {
        let channel = EmbeddedChannel(handler: FlushCoalescingHandler())
        channel.writeAndFlush(ByteBuffer(string: "first answer"), promise: nil)
        channel.writeAndFlush(ByteBuffer(string: "second answer"), promise: nil)
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil, "nothing leaves before the turn ends")

        channel.embeddedEventLoop.run()
        #expect(try channel.readOutbound(as: ByteBuffer.self) == ByteBuffer(string: "first answer"))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == ByteBuffer(string: "second answer"))

        channel.writeAndFlush(ByteBuffer(string: "next turn"), promise: nil)
        channel.embeddedEventLoop.run()
        #expect(try channel.readOutbound(as: ByteBuffer.self) == ByteBuffer(string: "next turn"), "a later turn flushes again")
        _ = try channel.finish()
    }

    @Test func whatWaitsForTheTurnLeavesBeforeTheConnectionCloses() throws {
        let channel = EmbeddedChannel(handler: FlushCoalescingHandler())
        channel.writeAndFlush(ByteBuffer(string: "last answer"), promise: nil)
        channel.close(promise: nil)
        #expect(try channel.readOutbound(as: ByteBuffer.self) == ByteBuffer(string: "last answer"))
        channel.embeddedEventLoop.run()
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil, "flushed once")
    }
}
