import CommandSupport
import FleetEngineProtos
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import SwiftProtobuf

/// The third gRPC floor of `bench grpc-floors`: UpdateVehicle answered straight on
/// swift-nio-http2, the HTTP/2 layer grpc-swift's transport is built on, without grpc-swift.
/// Unary calls only, uncompressed, no deadlines or metadata: the least a Swift gRPC door would
/// have to do, to tell how much of grpc-swift's cost lies above HTTP/2.
enum NIOHTTP2Floor {
    /// Listens on a free loopback port; close the returned channel to stop.
    static func start(on group: any EventLoopGroup) async throws -> any Channel {
        try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
                        mode: .server, connectionConfiguration: .init(), streamConfiguration: .init()
                    ) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandler(UnaryCall())
                        }
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
    }

    /// One stream: the request's headers and message, then the answer.
    private final class UnaryCall: ChannelInboundHandler {
        typealias InboundIn = HTTP2Frame.FramePayload
        typealias OutboundOut = HTTP2Frame.FramePayload

        private static let method = "/maps.fleetengine.v1.VehicleService/UpdateVehicle"
        private var path: String?
        private var body = ByteBuffer()

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .headers(let headers):
                path = path ?? headers.headers.first(name: ":path")
                if headers.endStream { answer(context: context) }
            case .data(let frame):
                if case .byteBuffer(var bytes) = frame.data { body.writeBuffer(&bytes) }
                if frame.endStream { answer(context: context) }
            default:
                break
            }
        }

        private func answer(context: ChannelHandlerContext) {
            guard path == Self.method else { return finish(context: context, status: 12) }
            guard body.readInteger(as: UInt8.self) == 0, let length = body.readInteger(as: UInt32.self),
                let bytes = body.readBytes(length: Int(length)),
                let request = try? Maps_Fleetengine_V1_UpdateVehicleRequest(serializedBytes: bytes)
            else { return finish(context: context, status: 3) }
            var vehicle = request.vehicle
            vehicle.name = request.name
            guard let reply: [UInt8] = try? vehicle.serializedBytes() else {
                return finish(context: context, status: 13)
            }
            var frame = context.channel.allocator.buffer(capacity: reply.count + 5)
            frame.writeInteger(UInt8(0))
            frame.writeInteger(UInt32(reply.count))
            frame.writeBytes(reply)
            context.write(
                wrapOutboundOut(.headers(.init(headers: [":status": "200", "content-type": "application/grpc"]))),
                promise: nil)
            context.write(wrapOutboundOut(.data(.init(data: .byteBuffer(frame)))), promise: nil)
            finish(context: context, status: 0, headersSent: true)
        }

        /// Ends the stream with `grpc-status` (in a trailers-only answer unless the headers went).
        private func finish(context: ChannelHandlerContext, status: Int, headersSent: Bool = false) {
            var trailers: HPACKHeaders = headersSent ? [:] : [":status": "200", "content-type": "application/grpc"]
            trailers.add(name: "grpc-status", value: String(status))
            context.writeAndFlush(wrapOutboundOut(.headers(.init(headers: trailers, endStream: true))), promise: nil)
        }
    }
}
