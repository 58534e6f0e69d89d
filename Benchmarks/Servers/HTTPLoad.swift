import NIOCore
import NIOHTTP1
import NIOPosix

/// HTTP/1.1 load on SwiftNIO keep-alive connections, one request in flight on each.
///
/// Without a rate, a closed loop: a connection sends its next request the moment the previous
/// answer has ended, until a deadline or a request count. With a rate, an open loop: each
/// connection sends on a timetable, and latency is measured from when a request was due, not
/// when it went out, so a stalled server's queue counts against it (no coordinated omission).
enum HTTPLoad {
    /// One request.
    struct Request {
        let head: HTTPRequestHead
        let body: ByteBuffer?
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

        mutating func merge(_ other: Tally) {
            succeeded += other.succeeded
            failed += other.failed
            firstFailure = firstFailure ?? other.firstFailure
            latencies += other.latencies
        }
    }

    /// Runs `connections` connections to `host`:`port` for `duration` (or until each has sent
    /// `requestsPerConnection`), at `rate` requests per second in all when given;
    /// `request(connection, n)` makes a connection's nth request.
    static func run(
        host: String, port: Int, connections: Int, duration: Duration, rate: Double? = nil,
        requestsPerConnection: Int? = nil,
        on group: any EventLoopGroup, request: @escaping @Sendable (_ connection: Int, _ n: Int) -> Request
    ) async throws -> Tally {
        let interval = rate.map { TimeAmount.nanoseconds(Int64(Double(connections) / max($0, 1) * 1e9)) }
        let start = NIODeadline.now() + .milliseconds(50)
        let end = start + TimeAmount(duration)
        var finished: [EventLoopFuture<Tally>] = []
        for index in 0..<connections {
            let loop = group.next()
            let done = loop.makePromise(of: Tally.self)
            let schedule = Schedule(
                first: start + .nanoseconds((interval?.nanoseconds ?? 0) * Int64(index) / Int64(connections)),
                interval: interval, end: end, limit: requestsPerConnection ?? .max)
            _ = try await ClientBootstrap(group: loop)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(
                            Connection(index: index, schedule: schedule, done: done, request: request))
                    }
                }
                .connect(host: host, port: port).get()
            finished.append(done.futureResult)
        }
        var total = Tally()
        for future in finished { total.merge(try await future.get()) }
        return total
    }

    /// When a connection's requests are due.
    private struct Schedule {
        /// When the first is due.
        let first: NIODeadline
        /// Time between two requests (open loop), or `nil` (closed loop).
        let interval: TimeAmount?
        /// No request is due from then on.
        let end: NIODeadline
        /// The most requests the connection sends.
        let limit: Int
    }

    /// One connection's timetable: a tick every `interval` queues a request (or, in a closed
    /// loop, each answer queues the next); one is in flight at a time; the queue drains as
    /// answers arrive.
    private final class Connection: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundOut = HTTPClientRequestPart

        private let index: Int
        private let schedule: Schedule
        private let done: EventLoopPromise<Tally>
        private let request: @Sendable (Int, Int) -> Request
        private var next: NIODeadline
        private var due: [NIODeadline] = []
        /// When the request in flight was due.
        private var inFlight: NIODeadline?
        private var sent = 0
        private var status = HTTPResponseStatus.ok
        private var tally = Tally()

        init(
            index: Int, schedule: Schedule, done: EventLoopPromise<Tally>,
            request: @escaping @Sendable (Int, Int) -> Request
        ) {
            self.index = index
            self.schedule = schedule
            self.next = schedule.first
            self.done = done
            self.request = request
        }

        func channelActive(context: ChannelHandlerContext) {
            scheduleTick(context)
            context.fireChannelActive()
        }

        private func scheduleTick(_ context: ChannelHandlerContext) {
            guard next < schedule.end else {
                if inFlight == nil { context.close(promise: nil) }
                return
            }
            let deadline = next
            context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
                self.due.append(deadline)
                if let interval = self.schedule.interval {
                    self.next = deadline + interval
                    self.scheduleTick(context)
                }
                if self.inFlight == nil { self.send(context) }
            }
        }

        private func send(_ context: ChannelHandlerContext) {
            guard !due.isEmpty, sent < schedule.limit else { return }
            let next = request(index, sent)
            sent += 1
            inFlight = due.removeFirst()
            context.write(wrapOutboundOut(.head(next.head)), promise: nil)
            if let body = next.body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                status = head.status
            case .body:
                break
            case .end:
                let now = NIODeadline.now()
                if let due = inFlight {
                    tally.latencies.append((now - due).nanoseconds)
                    if status == .ok {
                        tally.succeeded += 1
                    } else {
                        tally.failed += 1
                        tally.firstFailure = tally.firstFailure ?? "HTTP \(status.code)"
                    }
                }
                inFlight = nil
                if schedule.interval == nil, now < schedule.end { due.append(now) }
                if !due.isEmpty, sent < schedule.limit {
                    send(context)
                } else if schedule.interval == nil || next >= schedule.end || sent >= schedule.limit {
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
    }
}
