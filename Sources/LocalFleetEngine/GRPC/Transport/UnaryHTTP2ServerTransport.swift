import FleetAuthLocking
import FleetAuthServerHTTP
import GRPCCore
import NIOCore
import NIOExtras
import NIOHTTP2
import NIOPosix

/// grpc-swift 2's server transport for the engine's gRPC door, written directly on
/// swift-nio-http2: plaintext HTTP/2, each stream read whole in the channel pipeline before its
/// call starts (every method the engine serves takes one request message), the call started
/// there as a task, and its answer handed back to the connection's event loop.
///
/// The calls of ``UnaryMethodOnLoop`` methods are answered on the event loop that read them,
/// without a task, when the method takes them (these are not among the calls a cancelled
/// transport waits for: they end with their save). Every other call runs on Swift's global
/// executor, not on the event loop that read it: a connection's calls then use both cores
/// whichever loop the connection is on. Pinned to their
/// loop (a task executor preference), they saved a hop each but left a core idle whenever one
/// loop had more calls than the other: 7–10 % fewer updates a second (docs/performance.md).
///
/// grpc-swift's own NIO transport gives every stream an async channel, and that bridge cost
/// about a quarter of the CPU of each call (docs/performance.md); grpc-swift's server, router,
/// generated services and health service stay as they are.
@available(macOS 15.0, iOS 18.0, *)
package final class UnaryHTTP2ServerTransport: ServerTransport {
    package typealias Bytes = [UInt8]

    private let host: String
    private let port: Int
    private let maximumRequestSize: Int
    /// The certificate it speaks TLS with (ALPN `h2`); plaintext without.
    private let tls: TLSCertificates?
    /// The methods answered on the event loop when they can, by `service/method`.
    private let methodsOnLoop: [String: any UnaryMethodOnLoop]
    private let group: MultiThreadedEventLoopGroup
    private let quiescing: ServerQuiescingHelper
    /// Finished when the server stops listening: quiesced, or cancelled.
    private let stopped: AsyncStream<Never>
    private let stop: AsyncStream<Never>.Continuation
    private let calls = Locked(RunningCalls())
    private let address = Locked(AddressState.waiting([]))

    /// The calls under way, each with the handle that cancels it, and who waits for none to be left.
    private struct RunningCalls {
        var nextID = 0
        var running: [Int: CallCancellation] = [:]
        /// Set when the server is cancelled: a call its open connections still start is
        /// cancelled at once.
        var cancelled = false
        var whenNoneLeft: CheckedContinuation<Void, Never>?
    }

    private enum AddressState {
        case waiting([CheckedContinuation<Int, any Error>])
        case listening(Int)
        case failed(any Error)
    }

    /// A transport that will listen on `host` (an address or a name) and `port` (0 picks a free
    /// one), refusing request messages larger than `maximumRequestSize` bytes, and answering the
    /// calls of `methodsOnLoop` where they are read when they can.
    package init(
        host: String, port: Int, maximumRequestSize: Int, tls: TLSCertificates? = nil,
        methodsOnLoop: [any UnaryMethodOnLoop] = [],
        group: MultiThreadedEventLoopGroup = .singleton
    ) {
        self.tls = tls
        self.host = host
        self.port = port
        self.maximumRequestSize = maximumRequestSize
        self.methodsOnLoop = Dictionary(
            methodsOnLoop.map { ($0.fullyQualifiedMethod, $0) }, uniquingKeysWith: { first, _ in first })
        self.group = group
        self.quiescing = ServerQuiescingHelper(group: group)
        (stopped, stop) = AsyncStream.makeStream(of: Never.self)
    }

    /// The port it listens on, once it does.
    package var listeningPort: Int {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let known: Result<Int, any Error>? = address.withLock { state in
                    switch state {
                    case .waiting(let waiting):
                        state = .waiting(waiting + [continuation])
                        return nil
                    case .listening(let port): return .success(port)
                    case .failed(let error): return .failure(error)
                    }
                }
                if let known { continuation.resume(with: known) }
            }
        }
    }

    package func listen(
        streamHandler: @escaping @Sendable (RPCStream<Inbound, Outbound>, ServerContext) async -> Void
    ) async throws {
        let channel: any Channel
        do {
            channel = try await bind { [self] call in start(call, streamHandler) }
        } catch {
            settleAddress(.failure(error))
            throw error
        }
        settleAddress(.success(channel.localAddress?.port ?? port))
        await withTaskCancellationHandler {
            for await _ in stopped {}
        } onCancel: { [self] in
            channel.close(promise: nil)
            stop.finish()
            let running = calls.withLock { calls in
                calls.cancelled = true
                return Array(calls.running.values)
            }
            for call in running { call.cancel() }
        }
        await withCheckedContinuation { continuation in
            let noneLeft = calls.withLock { calls in
                guard calls.running.isEmpty else {
                    calls.whenNoneLeft = continuation
                    return false
                }
                return true
            }
            if noneLeft { continuation.resume() }
        }
    }

    /// Stops accepting connections, lets every open one finish its calls, and returns from
    /// ``listen(streamHandler:)`` once they are closed and their calls ended.
    package func beginGracefulShutdown() {
        let closed = group.next().makePromise(of: Void.self)
        closed.futureResult.whenComplete { [stop] _ in stop.finish() }
        quiescing.initiateShutdown(promise: closed)
    }

    /// Answers `call` on this event loop when its method is one of ``methodsOnLoop`` and takes it;
    /// else runs it through grpc-swift's server (`streamHandler`) as a task of its own. Called by
    /// the connection, on its loop, once the call's request is read.
    private func start(
        _ call: ReadCall,
        _ streamHandler: @escaping @Sendable (RPCStream<Inbound, Outbound>, ServerContext) async -> Void
    ) {
        if let method = methodsOnLoop[call.descriptor.fullyQualifiedMethod], call.parts.count == 2,
            case .metadata(let metadata) = call.parts[0], case .message(let message) = call.parts[1],
            method.answer(
                metadata: metadata, message: message,
                respond: { [writer = call.writer] (outcome: Result<[UInt8], RPCError>) in writer.answer(outcome) })
        {
            return
        }
        let (id, cancelled) = calls.withLock { calls in
            calls.nextID += 1
            calls.running[calls.nextID] = call.cancellation
            return (calls.nextID, calls.cancelled)
        }
        if cancelled { call.cancellation.cancel() }
        Task { [calls] in
            await Self.run(call, streamHandler)
            let waiting = calls.withLock { calls -> CheckedContinuation<Void, Never>? in
                calls.running[id] = nil
                guard calls.running.isEmpty else { return nil }
                defer { calls.whenNoneLeft = nil }
                return calls.whenNoneLeft
            }
            waiting?.resume()
        }
    }

    private func bind(accept: @escaping @Sendable (ReadCall) -> Void) async throws -> any Channel {
        let maximumRequestSize = maximumRequestSize
        let tls = tls
        return try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { [quiescing] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: channel))
                }
            }
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // swift-nio-http2's check of every header's characters cost about 2 µs a
                    // call, most of it on the long `authorization` value. The connection handler
                    // checks what it reads (`:method`, `content-type`, `:path`, `grpc-encoding`),
                    // and a token with a stray character is refused like any malformed token.
                    var configuration = NIOHTTP2Handler.ConnectionConfiguration()
                    configuration.headerBlockValidation = .disabled
                    configuration.initialSettings = GRPCConnectionHandler.initialSettings(
                        maximumRequestSize: maximumRequestSize)
                    if let tls { try channel.pipeline.syncOperations.addHandler(tls.serverHandler(for: .http2)) }
                    let handlers: [any ChannelHandler] = [
                        NIOHTTP2Handler(mode: .server, frameDelegate: nil, connectionConfiguration: configuration),
                        GRPCConnectionHandler(maximumRequestSize: maximumRequestSize, accept: accept),
                        // A connection that breaks HTTP/2 (garbage, a bad preface) gets its GOAWAY
                        // and is closed, not left open.
                        NIOCloseOnErrorHandler(),
                    ]
                    try channel.pipeline.syncOperations.addHandlers(handlers)
                }
            }
            .bind(host: host, port: port)
            .get()
    }

    private func settleAddress(_ result: Result<Int, any Error>) {
        let waiting = address.withLock { state in
            guard case .waiting(let waiting) = state else { return [CheckedContinuation<Int, any Error>]() }
            switch result {
            case .success(let port): state = .listening(port)
            case .failure(let error): state = .failed(error)
            }
            return waiting
        }
        waiting.forEach { $0.resume(with: result) }
    }

    /// Runs `call` through grpc-swift's server (`streamHandler`), with a cancellation handle
    /// the stream cancels if its caller goes away (or the server, if it is cancelled).
    private static func run(
        _ call: ReadCall, _ streamHandler: @Sendable (RPCStream<Inbound, Outbound>, ServerContext) async -> Void
    ) async {
        await withServerContextRPCCancellationHandle { handle in
            call.cancellation.attach(handle)
            let context = ServerContext(
                descriptor: call.descriptor, remotePeer: call.remotePeer, localPeer: call.localPeer,
                cancellation: handle)
            let stream = RPCStream(
                descriptor: call.descriptor, inbound: RPCAsyncSequence(wrapping: ReadParts(parts: call.parts)),
                outbound: RPCWriter.Closable(wrapping: call.writer))
            await streamHandler(stream, context)
        }
    }
}

/// A call's request parts, already read: an async sequence that never waits.
private struct ReadParts: AsyncSequence, Sendable {
    typealias Element = RPCRequestPart<[UInt8]>
    typealias Failure = any Error

    let parts: [Element]

    struct AsyncIterator: AsyncIteratorProtocol {
        var parts: IndexingIterator<[Element]>

        mutating func next() async throws -> Element? {
            parts.next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(parts: parts.makeIterator())
    }
}
