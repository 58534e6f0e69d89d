import FleetAuthLocking
import GRPCCore
import NIOCore

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

/// Where grpc-swift's server writes a call's answer: each part goes to the call's stream on its
/// connection's event loop (at once when written there, else in a hop to the loop).
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

    /// Writes a unary call's whole answer, from any thread: its message and an `OK` status, or
    /// the status alone when it is refused, as grpc-swift's server writes them.
    func answer(_ outcome: Result<[UInt8], RPCError>) {
        let parts: [Element] =
            switch outcome {
            case .success(let message):
                [.metadata(Metadata()), .message(message), .status(Status(code: .ok, message: ""), Metadata())]
            case .failure(let error):
                [.status(Status(code: Status.Code(error.code), message: error.message), Metadata())]
            }
        if eventLoop.inEventLoop {
            parts.forEach(send)
        } else {
            eventLoop.execute { [send] in parts.forEach(send) }
        }
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
