import GRPCCore
import NIOCore
import NIOHPACK
import NIOHTTP2

/// One HTTP/2 connection of the gRPC door, read frame by frame: each stream's request is read
/// whole (every method the engine serves takes one message) and handed on as a ``ReadCall``;
/// the answer its ``GRPCStreamWriter`` gives is written back as frames of that stream. A request
/// that is not gRPC, too large, or unreadable gets its status here, without reaching grpc-swift.
///
/// It sits right after swift-nio-http2's handler, with no stream multiplexer: a stream is an
/// entry in a dictionary, not a child channel with a pipeline of its own, which cost a few
/// microseconds a call (docs/performance.md). What the multiplexer did for the door is done
/// here:
/// - **Flow control** (``InboundWindows``). Every stream's window is opened to hold a whole
///   request at once (``initialSettings(maximumRequestSize:)``); the connection's window is
///   topped up as data arrives, up to a budget of unfinished requests held.
/// - **Cancellation.** A stream closed (reset by its caller, or the connection gone) before its
///   answer ended cancels its call.
/// - **Graceful shutdown.** When the server quiesces, a GOAWAY tells the client that no new
///   call is taken, and the connection closes once the calls under way have been answered.
/// - **Flushes.** The answers written in one turn of the event loop leave with one flush.
final class GRPCConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// The settings the door opens each connection with: swift-nio-http2's defaults, and a
    /// stream window that holds a request of `maximumRequestSize` bytes of messages.
    static func initialSettings(maximumRequestSize: Int) -> HTTP2Settings {
        nioDefaultSettings + [
            HTTP2Setting(
                parameter: .initialWindowSize,
                value: InboundWindows(maximumRequestSize: maximumRequestSize).streamTarget)
        ]
    }

    /// One stream, from its first headers until swift-nio-http2 reports it closed.
    private final class Stream {
        var requestHeaders: HPACKHeaders?
        var body = ByteBuffer()
        /// Whether the request was read whole (or refused): later frames are ignored.
        var read = false
        /// Whether the caller ended its side of the stream.
        var callerEnded = false
        var headersSent = false
        /// Whether the answer ended (its status was written).
        var answered = false
        var cancellation: CallCancellation?
    }

    /// How long a closing connection waits for its caller to read what is left.
    static let closingGrace = TimeAmount.seconds(5)

    private let maximumRequestSize: Int
    private var windows: InboundWindows
    private let accept: @Sendable (ReadCall) -> Void
    private var remotePeer = ""
    private var localPeer = ""
    private var streams: [HTTP2StreamID: Stream] = [:]
    private var context: ChannelHandlerContext?
    private var flushScheduled = false
    private var quiescing = false
    /// The last stream whose request was read, for the GOAWAY that closes the connection.
    private var lastStreamRead = HTTP2StreamID(0)

    /// A handler that hands calls to `accept`, refusing requests larger than
    /// `maximumRequestSize` bytes of messages.
    init(maximumRequestSize: Int, accept: @escaping @Sendable (ReadCall) -> Void) {
        self.maximumRequestSize = maximumRequestSize
        self.windows = InboundWindows(maximumRequestSize: maximumRequestSize)
        self.accept = accept
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        // Formatted once per connection, not per call.
        remotePeer = context.channel.remoteAddress.map { "\($0)" } ?? ""
        localPeer = context.channel.localAddress.map { "\($0)" } ?? ""
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    // MARK: Reading

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case .headers(let headers):
            let stream = streams[frame.streamID] ?? open(frame.streamID)
            guard !stream.read else { return }
            stream.callerEnded = headers.endStream
            if stream.requestHeaders == nil {
                stream.requestHeaders = headers.headers
                if let httpStatus = Self.notGRPC(headers.headers) {
                    return answerHTTP(httpStatus, stream, frame.streamID)
                }
                if let refusal = Self.refusal(of: headers.headers) { return refuse(refusal, stream, frame.streamID) }
            }
            if headers.endStream { requestEnded(stream, frame.streamID) }
        case .data(let data):
            guard let stream = streams[frame.streamID], !stream.read else { return }
            stream.callerEnded = data.endStream
            if case .byteBuffer(var bytes) = data.data {
                guard stream.body.readableBytes + bytes.readableBytes <= maximumRequestSize + 5 else {
                    return refuse(
                        Status(
                            code: .resourceExhausted, message: "the request is larger than \(maximumRequestSize) bytes"),
                        stream, frame.streamID)
                }
                windows.bufferedBytes += bytes.readableBytes
                stream.body.writeBuffer(&bytes)
            }
            if data.endStream { requestEnded(stream, frame.streamID) }
        default:
            break
        }
    }

    private func open(_ streamID: HTTP2StreamID) -> Stream {
        let stream = Stream()
        streams[streamID] = stream
        return stream
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case let closed as StreamClosedEvent:
            streamClosed(closed.streamID)
        case let window as NIOHTTP2WindowUpdatedEvent:
            windowReported(window)
        case is ChannelShouldQuiesceEvent:
            quiesce()
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        for stream in streams.values where !stream.answered { stream.cancellation?.cancel() }
        streams = [:]
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A frame written to a stream its caller has reset: that stream is gone, the
        // connection is not.
        guard !(error is NIOHTTP2Errors.StreamError) else { return }
        context.fireErrorCaught(error)
    }

    /// Lets the caller send more on the connection or on a stream still being read, when their
    /// windows run low.
    private func windowReported(_ window: NIOHTTP2WindowUpdatedEvent) {
        guard let size = window.inboundWindowSize, let context else { return }
        if window.streamID == .rootStream {
            windows.connectionWindowReported(size)
            return grantConnectionWindow()
        }
        guard let stream = streams[window.streamID], !stream.read, let increment = windows.streamTopUp(window: size)
        else { return }
        context.write(
            wrapOutboundOut(
                HTTP2Frame(streamID: window.streamID, payload: .windowUpdate(windowSizeIncrement: increment))),
            promise: nil)
        scheduleFlush()
    }

    private func grantConnectionWindow() {
        guard let context, let increment = windows.connectionTopUp() else { return }
        let written = context.eventLoop.makePromise(of: Void.self)
        context.write(
            wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: increment))),
            promise: written)
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        written.futureResult.whenComplete { _ in handler.value.windows.topUpWritten() }
        scheduleFlush()
    }

    /// Stops reading `stream`'s request (read whole, refused, or gone): its bytes no longer
    /// count against the connection's budget.
    private func stopReading(_ stream: Stream) {
        guard !stream.read else { return }
        stream.read = true
        windows.bufferedBytes -= stream.body.readableBytes
        grantConnectionWindow()
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
            return Status(
                code: .unimplemented, message: "compression '\(encoding)' is not supported; send messages uncompressed")
        }
        return nil
    }

    private func requestEnded(_ stream: Stream, _ streamID: HTTP2StreamID) {
        stopReading(stream)
        lastStreamRead = max(lastStreamRead, streamID)
        guard let headers = stream.requestHeaders, let context else { return }
        // What the call needs is copied out below; the stream keeps no request bytes while it runs.
        defer { (stream.requestHeaders, stream.body) = (nil, ByteBuffer()) }
        let path = headers.first(name: ":path") ?? ""
        guard let descriptor = GRPCWire.method(atPath: path) else {
            return refuse(Status(code: .unimplemented, message: "'\(path)' names no gRPC method"), stream, streamID)
        }
        let messages: [[UInt8]]
        do {
            messages = try GRPCWire.messages(in: &stream.body)
        } catch {
            return refuse(error.status, stream, streamID)
        }
        let cancellation = CallCancellation()
        stream.cancellation = cancellation
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        accept(
            ReadCall(
                descriptor: descriptor,
                parts: [.metadata(GRPCWire.metadata(of: headers))] + messages.map { .message($0) },
                writer: GRPCStreamWriter(eventLoop: context.eventLoop) { part in handler.value.write(part, to: streamID)
                },
                cancellation: cancellation,
                remotePeer: remotePeer,
                localPeer: localPeer))
    }

    // MARK: Writing

    /// Writes one part of the answer on `streamID`; the status ends the stream. Parts of a
    /// stream that is already closed are dropped.
    private func write(_ part: RPCResponsePart<[UInt8]>, to streamID: HTTP2StreamID) {
        guard let stream = streams[streamID], !stream.answered, let context else { return }
        switch part {
        case .metadata(let metadata):
            guard !stream.headersSent else { return }
            stream.headersSent = true
            context.write(
                wrapOutboundOut(
                    HTTP2Frame(
                        streamID: streamID, payload: .headers(.init(headers: GRPCWire.responseHeaders(metadata))))),
                promise: nil)
        case .message(let message):
            if !stream.headersSent {
                stream.headersSent = true
                let headers = GRPCWire.responseHeaders(Metadata())
                context.write(
                    wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers)))),
                    promise: nil)
            }
            let framed = GRPCWire.frame(message, allocator: context.channel.allocator)
            context.write(
                wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .data(.init(data: .byteBuffer(framed))))),
                promise: nil)
        case .status(let status, let metadata):
            return end(stream, streamID, with: GRPCWire.trailers(status, metadata, trailersOnly: !stream.headersSent))
        }
        scheduleFlush()
    }

    /// Ends the stream with a bare HTTP `status`.
    private func answerHTTP(_ status: String, _ stream: Stream, _ streamID: HTTP2StreamID) {
        end(stream, streamID, with: [":status": status])
    }

    /// Ends the stream with `status`, before any call ran.
    private func refuse(_ status: Status, _ stream: Stream, _ streamID: HTTP2StreamID) {
        write(.status(status, Metadata()), to: streamID)
    }

    /// Writes the headers that end the answer on `streamID`. Answered before its caller ended
    /// the request (refused early), the stream is also reset with `NO_ERROR`: the caller need
    /// not send the rest (RFC 9113, section 8.1).
    private func end(_ stream: Stream, _ streamID: HTTP2StreamID, with headers: HPACKHeaders) {
        guard let context else { return }
        stream.answered = true
        context.write(
            wrapOutboundOut(
                HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers, endStream: true)))),
            promise: nil)
        stopReading(stream)
        (stream.requestHeaders, stream.body) = (nil, ByteBuffer())
        if !stream.callerEnded {
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .rstStream(.noError))), promise: nil)
        }
        scheduleFlush()
    }

    /// Flushes what was written once the loop has run the work under way: the answers of one
    /// commit leave together, and a streaming answer (health `Watch`) gets its message out when
    /// it stops to wait.
    private func scheduleFlush() {
        guard !flushScheduled, let context else { return }
        flushScheduled = true
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.eventLoop.execute { handler.value.flushNow() }
    }

    private func flushNow() {
        guard flushScheduled else { return }
        flushScheduled = false
        context?.flush()
    }

    // MARK: Closing

    private func streamClosed(_ streamID: HTTP2StreamID) {
        guard let stream = streams.removeValue(forKey: streamID) else { return }
        stopReading(stream)
        if !stream.answered { stream.cancellation?.cancel() }
        if quiescing, streams.isEmpty { closeConnection() }
    }

    private func quiesce() {
        quiescing = true
        guard let context else { return }
        let goAway = HTTP2Frame(
            streamID: .rootStream, payload: .goAway(lastStreamID: .maxID, errorCode: .noError, opaqueData: nil))
        context.write(wrapOutboundOut(goAway), promise: nil)
        if streams.isEmpty { closeConnection() } else { scheduleFlush() }
    }

    /// Closes the connection once what was written has left: on the next turn of the loop (as
    /// swift-nio-http2 may be in the middle of writing the frame that closed the last stream), a
    /// last GOAWAY names the last stream that was read, so the client knows any later one went
    /// unanswered and may be retried; the connection closes when that frame has been written, or
    /// after ``closingGrace`` if the caller does not read it.
    private func closeConnection() {
        guard let context else { return }
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.eventLoop.execute {
            let handler = handler.value
            guard let context = handler.context else { return }
            handler.flushScheduled = false
            let goAway = HTTP2Frame(
                streamID: .rootStream,
                payload: .goAway(lastStreamID: handler.lastStreamRead, errorCode: .noError, opaqueData: nil))
            let written = context.eventLoop.makePromise(of: Void.self)
            context.writeAndFlush(handler.wrapOutboundOut(goAway), promise: written)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            written.futureResult.whenComplete { _ in bound.value.close(promise: nil) }
            context.eventLoop.scheduleTask(in: Self.closingGrace) { bound.value.close(promise: nil) }
        }
    }
}
