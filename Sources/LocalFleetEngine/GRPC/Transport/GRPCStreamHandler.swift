import GRPCCore
import Locking
import NIOCore
import NIOHPACK
import NIOHTTP2

/// A call the transport has read whole, ready for grpc-swift's server to run.
struct ReadCall: Sendable {
    let descriptor: MethodDescriptor
    /// The caller's metadata, then each message.
    let parts: [RPCRequestPart<[UInt8]>]
    let writer: GRPCStreamWriter
    let cancellation: CallCancellation
    let remotePeer: String
    let localPeer: String
}

/// Tells a running call that its caller went away (the stream was reset or closed before the
/// answer ended); either side may come first.
final class CallCancellation: Sendable {
    private let state = Locked((handle: ServerContext.RPCCancellationHandle?.none, cancelled: false))

    /// The call's handle, once it runs; cancelled at once if the caller already went.
    func attach(_ handle: ServerContext.RPCCancellationHandle) {
        let cancelled = state.withLock { state in
            state.handle = handle
            return state.cancelled
        }
        if cancelled { handle.cancel() }
    }

    /// The caller went away.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            return state.handle
        }?.cancel()
    }
}

/// One HTTP/2 stream of the gRPC door: reads the request whole (every method the engine
/// serves takes one message), hands it on as a ``ReadCall``, and writes the answer the call's
/// ``GRPCStreamWriter`` gives it. A request that is not gRPC, too large, or unreadable gets its
/// status here, without reaching grpc-swift.
final class GRPCStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private let maximumRequestSize: Int
    private let accept: @Sendable (ReadCall) -> Void
    private let remotePeer: String
    private let localPeer: String
    private var requestHeaders: HPACKHeaders?
    private var body = ByteBuffer()
    private var read = false
    private var answered = false
    private var headersSent = false
    /// Whether a flush is scheduled for a message written without one.
    private var flushScheduled = false
    private var cancellation: CallCancellation?

    /// A handler that hands calls to `accept`, refusing requests larger than
    /// `maximumRequestSize` bytes of messages; the connection's addresses name its peers.
    init(maximumRequestSize: Int, remotePeer: String, localPeer: String, accept: @escaping @Sendable (ReadCall) -> Void) {
        self.maximumRequestSize = maximumRequestSize
        self.remotePeer = remotePeer
        self.localPeer = localPeer
        self.accept = accept
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !read else { return }
        switch unwrapInboundIn(data) {
        case .headers(let frame):
            if requestHeaders == nil {
                requestHeaders = frame.headers
                if let httpStatus = Self.notGRPC(frame.headers) { return answerHTTP(httpStatus, context: context) }
                if let refusal = Self.refusal(of: frame.headers) { return refuse(refusal, context: context) }
            }
            if frame.endStream { requestEnded(context: context) }
        case .data(let frame):
            if case .byteBuffer(var bytes) = frame.data {
                guard body.readableBytes + bytes.readableBytes <= maximumRequestSize + 5 else {
                    return refuse(Status(code: .resourceExhausted, message: "the request is larger than \(maximumRequestSize) bytes"), context: context)
                }
                body.writeBuffer(&bytes)
            }
            if frame.endStream { requestEnded(context: context) }
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !answered { cancellation?.cancel() }
        context.fireChannelInactive()
    }

    /// The HTTP status for a request that is no gRPC call at all, as gRPC's HTTP/2 protocol
    /// has it (405 for another method than POST, 415 for another content type), or `nil`.
    private static func notGRPC(_ headers: HPACKHeaders) -> String? {
        guard headers.first(name: ":method") == "POST" else { return "405" }
        guard headers.first(name: "content-type")?.hasPrefix("application/grpc") == true else { return "415" }
        return nil
    }

    /// Why a gRPC call with these headers cannot be answered, or `nil`.
    private static func refusal(of headers: HPACKHeaders) -> Status? {
        if let encoding = headers.first(name: "grpc-encoding"), encoding != "identity" {
            return Status(code: .unimplemented, message: "compression '\(encoding)' is not supported; send messages uncompressed")
        }
        return nil
    }

    private func requestEnded(context: ChannelHandlerContext) {
        read = true
        guard let headers = requestHeaders else { return }
        let path = headers.first(name: ":path") ?? ""
        let pieces = path.split(separator: "/", omittingEmptySubsequences: false)
        guard pieces.count == 3, pieces[0].isEmpty, !pieces[1].isEmpty, !pieces[2].isEmpty else {
            return refuse(Status(code: .unimplemented, message: "'\(path)' names no gRPC method"), context: context)
        }
        let messages: [[UInt8]]
        do {
            messages = try GRPCWire.messages(in: &body)
        } catch {
            return refuse(error.status, context: context)
        }
        let cancellation = CallCancellation()
        self.cancellation = cancellation
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let contextBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        accept(ReadCall(
            descriptor: MethodDescriptor(fullyQualifiedService: String(pieces[1]), method: String(pieces[2])),
            parts: [.metadata(GRPCWire.metadata(of: headers))] + messages.map { .message($0) },
            writer: GRPCStreamWriter(eventLoop: context.eventLoop) { part in loopBound.value.write(part, context: contextBound.value) },
            cancellation: cancellation,
            remotePeer: remotePeer,
            localPeer: localPeer))
    }

    /// Writes one part of the answer; the status ends the stream.
    private func write(_ part: RPCResponsePart<[UInt8]>, context: ChannelHandlerContext) {
        guard !answered else { return }
        switch part {
        case .metadata(let metadata):
            guard !headersSent else { return }
            headersSent = true
            context.write(wrapOutboundOut(.headers(.init(headers: GRPCWire.responseHeaders(metadata)))), promise: nil)
        case .message(let message):
            if !headersSent {
                headersSent = true
                context.write(wrapOutboundOut(.headers(.init(headers: GRPCWire.responseHeaders(Metadata())))), promise: nil)
            }
            context.write(wrapOutboundOut(.data(.init(data: .byteBuffer(GRPCWire.frame(message, allocator: context.channel.allocator))))), promise: nil)
            scheduleFlush(context: context)
        case .status(let status, let metadata):
            answered = true
            let trailers = GRPCWire.trailers(status, metadata, trailersOnly: !headersSent)
            context.writeAndFlush(wrapOutboundOut(.headers(.init(headers: trailers, endStream: true))), promise: nil)
        }
    }

    /// Flushes what was written once the loop has run the work under way. A unary call writes
    /// its status in the same turn, and that write flushes headers, message and trailers in one
    /// go; a streaming answer (health `Watch`) gets its message out when it stops to wait.
    private func scheduleFlush(context: ChannelHandlerContext) {
        guard !flushScheduled else { return }
        flushScheduled = true
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.execute {
            let (handler, context) = loopBound.value
            handler.flushScheduled = false
            context.flush()
        }
    }

    /// Ends the stream with a bare HTTP `status`.
    private func answerHTTP(_ status: String, context: ChannelHandlerContext) {
        read = true
        answered = true
        context.writeAndFlush(wrapOutboundOut(.headers(.init(headers: [":status": status], endStream: true))), promise: nil)
    }

    /// Ends the stream with `status`, before any call ran.
    private func refuse(_ status: Status, context: ChannelHandlerContext) {
        read = true
        write(.status(status, Metadata()), context: context)
    }
}

/// Where grpc-swift's server writes a call's answer: each part goes to the stream's
/// ``GRPCStreamHandler`` on its event loop (at once when written there, as the calls are).
struct GRPCStreamWriter: ClosableRPCWriterProtocol {
    typealias Element = RPCResponsePart<[UInt8]>

    let eventLoop: any EventLoop
    let send: @Sendable (RPCResponsePart<[UInt8]>) -> Void

    init(eventLoop: any EventLoop, send: @escaping @Sendable (RPCResponsePart<[UInt8]>) -> Void) {
        self.eventLoop = eventLoop
        self.send = send
    }

    func write(_ element: Element) async throws {
        if eventLoop.inEventLoop {
            send(element)
        } else {
            eventLoop.execute { [send] in send(element) }
        }
    }

    func write(contentsOf elements: some Sequence<Element>) async throws {
        for element in elements { try await write(element) }
    }

    /// grpc-swift writes a status before it finishes; a call that ends without one is answered
    /// `INTERNAL`.
    func finish() async {
        try? await write(.status(Status(code: .internalError, message: "the call ended without a status"), Metadata()))
    }

    func finish(throwing error: any Error) async {
        try? await write(.status(Status(code: .internalError, message: "the call failed"), Metadata()))
    }
}
