import FleetAuthLocking
import GRPCCore
import NIOCore
import NIOEmbedded
import NIOHPACK
import NIOHTTP2
import Testing

@testable import LocalFleetEngine

/// The gRPC door's connection handler on its own: the answers of one turn of the event loop
/// leave in one flush, and a quiescing connection says GOAWAY and closes once it is written.
struct GRPCConnectionHandlerTests {
    /// A connection handler in an embedded channel, and the calls it has read.
    private static func connection() throws -> (EmbeddedChannel, Locked<[ReadCall]>) {
        let calls = Locked([ReadCall]())
        let channel = EmbeddedChannel(
            handler: GRPCConnectionHandler(maximumRequestSize: 1024) { call in calls.withLock { $0.append(call) } })
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return (channel, calls)
    }

    /// Sends a whole request for `/s/m` with one empty message on `stream`.
    private static func request(on stream: Int, to channel: EmbeddedChannel) throws {
        let headers: HPACKHeaders = [":method": "POST", ":path": "/s/m", "content-type": "application/grpc"]
        try channel.writeInbound(
            HTTP2Frame(streamID: HTTP2StreamID(stream), payload: .headers(.init(headers: headers))))
        try channel.writeInbound(
            HTTP2Frame(
                streamID: HTTP2StreamID(stream),
                payload: .data(.init(data: .byteBuffer(ByteBuffer(bytes: [0, 0, 0, 0, 0])), endStream: true))))
    }

    @Test func theAnswersOfOneTurnLeaveTogetherWhenTheTurnEnds() throws {
        let (channel, calls) = try Self.connection()
        try Self.request(on: 1, to: channel)
        try Self.request(on: 3, to: channel)
        let read = calls.withLock { $0 }
        #expect(read.map(\.descriptor.fullyQualifiedMethod) == ["s/m", "s/m"])
        for call in read { call.writer.send(.status(Status(code: .ok, message: ""), Metadata())) }
        #expect(try channel.readOutbound(as: HTTP2Frame.self) == nil, "nothing leaves before the turn ends")

        channel.embeddedEventLoop.run()
        let answered = try [channel.readOutbound(as: HTTP2Frame.self), channel.readOutbound(as: HTTP2Frame.self)].map {
            $0?.streamID
        }
        #expect(answered == [HTTP2StreamID(1), HTTP2StreamID(3)])
        #expect(try channel.readOutbound(as: HTTP2Frame.self) == nil)
        _ = try channel.finish()
    }

    @Test func aQuiescingConnectionWithNoCallSaysGoAwayAndCloses() throws {
        let (channel, _) = try Self.connection()
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        channel.embeddedEventLoop.run()
        var goAways: [HTTP2StreamID] = []
        while let frame = try channel.readOutbound(as: HTTP2Frame.self) {
            if case .goAway(let last, _, _) = frame.payload { goAways.append(last) }
        }
        #expect(goAways == [.maxID, HTTP2StreamID(0)], "no new call, then: none was read")
        #expect(!channel.isActive)
    }
}
