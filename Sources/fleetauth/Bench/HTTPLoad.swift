import NIOCore
import NIOHTTP1
import NIOPosix

/// A closed-loop HTTP/1.1 load generator on SwiftNIO: each keep-alive connection sends its
/// next request the moment the previous answer has ended, until a deadline or a request count.
/// Everything happens on the connections' event loops, so the generator costs a few
/// microseconds per request and leaves the rest of the machine to the server.
enum HTTPLoad {
    /// One request, with what it stands for: `step` of `subject` (e.g. a vehicle's nth update).
    struct Request {
        let head: HTTPRequestHead
        let body: ByteBuffer?
        let subject: Int
        let step: Int
    }

    /// What a load run saw.
    struct Tally: Sendable {
        /// Answers with status 200.
        var succeeded = 0
        /// Other answers and connection errors.
        var failed = 0
        /// The first failure, for the report.
        var firstFailure: String?
        /// Latency of each answer, in nanoseconds.
        var latencies: [Int64] = []
        /// The highest step of each subject answered with 200.
        var acknowledged: [Int: Int] = [:]

        mutating func merge(_ other: Tally) {
            succeeded += other.succeeded
            failed += other.failed
            firstFailure = firstFailure ?? other.firstFailure
            latencies += other.latencies
            acknowledged.merge(other.acknowledged) { max($0, $1) }
        }
    }

    /// Runs `connections` connections to `host`:`port` until `duration` has passed or each has
    /// sent `requestsPerConnection`; `request(connection, n)` makes a connection's nth request.
    static func run(
        host: String, port: Int, connections: Int, duration: Duration, requestsPerConnection: Int? = nil,
        on group: any EventLoopGroup, request: @escaping @Sendable (_ connection: Int, _ n: Int) -> Request
    ) async throws -> Tally {
        let deadline = NIODeadline.now() + .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
        var finished: [EventLoopFuture<Tally>] = []
        for connection in 0..<connections {
            let loop = group.next()
            let done = loop.makePromise(of: Tally.self)
            _ = try await ClientBootstrap(group: loop)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(Connection(
                            index: connection, deadline: deadline, limit: requestsPerConnection, done: done, request: request))
                    }
                }
                .connect(host: host, port: port).get()
            finished.append(done.futureResult)
        }
        var total = Tally()
        for future in finished { total.merge(try await future.get()) }
        return total
    }

    /// One connection's loop: send, wait for the end of the answer, tally, send again.
    private final class Connection: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundOut = HTTPClientRequestPart

        private let index: Int
        private let deadline: NIODeadline
        private let limit: Int?
        private let done: EventLoopPromise<Tally>
        private let request: @Sendable (Int, Int) -> Request
        private var tally = Tally()
        private var sent = 0
        private var current: Request?
        private var sentAt = NIODeadline.now()
        private var status = HTTPResponseStatus.ok

        init(index: Int, deadline: NIODeadline, limit: Int?, done: EventLoopPromise<Tally>, request: @escaping @Sendable (Int, Int) -> Request) {
            self.index = index
            self.deadline = deadline
            self.limit = limit
            self.done = done
            self.request = request
        }

        func channelActive(context: ChannelHandlerContext) {
            send(context)
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                status = head.status
            case .body:
                break
            case .end:
                let now = NIODeadline.now()
                tally.latencies.append((now - sentAt).nanoseconds)
                if status == .ok, let current {
                    tally.succeeded += 1
                    tally.acknowledged[current.subject] = max(tally.acknowledged[current.subject] ?? 0, current.step)
                } else {
                    tally.failed += 1
                    tally.firstFailure = tally.firstFailure ?? "HTTP \(status.code)"
                }
                if now < deadline, sent < (limit ?? .max) {
                    send(context)
                } else {
                    context.close(promise: nil)
                }
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            tally.failed += 1
            tally.firstFailure = tally.firstFailure ?? "\(error)"
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            done.succeed(tally)
            context.fireChannelInactive()
        }

        private func send(_ context: ChannelHandlerContext) {
            let next = request(index, sent)
            sent += 1
            current = next
            sentAt = .now()
            context.write(wrapOutboundOut(.head(next.head)), promise: nil)
            if let body = next.body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
