import CommandSupport
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix

/// One HTTP/2 request with a header block no gRPC client would send (swift-nio-http2's own
/// header checks switched off on this side), for the gRPC door's bad-input tests.
enum RawHTTP2 {
    /// How the door ended the stream.
    enum Answer: Sendable {
        /// Its headers and trailers, in one block.
        case headers(HPACKHeaders)
        /// The stream or the connection was ended without an answer.
        case closed(String)

        /// The named header's first value in the answer.
        func first(_ name: String) -> String? {
            guard case .headers(let headers) = self else { return nil }
            return headers.first(name: name)
        }
    }

    /// Sends `headers` and `body` on a stream of a new connection to 127.0.0.1:`port`, ending
    /// the stream, and returns what comes back.
    static func send(port: Int, headers: HPACKHeaders, body: [UInt8]) async throws -> Answer {
        let configuration = {
            var configuration = NIOHTTP2Handler.Configuration()
            configuration.connection.headerBlockValidation = .disabled
            return configuration
        }()
        let (connection, multiplexer) = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    (
                        channel,
                        try channel.pipeline.syncOperations.configureAsyncHTTP2Pipeline(
                            mode: .client, streamDelegate: nil, configuration: configuration
                        ) { stream in stream.eventLoop.makeSucceededFuture(stream) }
                    )
                }
            }
        defer { connection.close(promise: nil) }
        let stream = try await multiplexer.openStream { stream in
            stream.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<HTTP2Frame.FramePayload, HTTP2Frame.FramePayload>(
                    wrappingChannelSynchronously: stream)
            }
        }
        return try await stream.executeThenClose { inbound, outbound in
            var answer = HPACKHeaders()
            do {
                // The server may end the connection as soon as it reads the headers, before
                // the body is written: that, too, is its answer.
                try await outbound.write(.headers(.init(headers: headers, endStream: body.isEmpty)))
                if !body.isEmpty {
                    try await outbound.write(.data(.init(data: .byteBuffer(ByteBuffer(bytes: body)), endStream: true)))
                }
                for try await payload in inbound {
                    switch payload {
                    case .headers(let block): answer.add(contentsOf: block.headers)
                    case .rstStream(let code): return .closed("reset \(code)")
                    default: break
                    }
                }
            } catch {
                return .closed("\(error)")
            }
            return answer.isEmpty ? .closed("no answer") : .headers(answer)
        }
    }
}
