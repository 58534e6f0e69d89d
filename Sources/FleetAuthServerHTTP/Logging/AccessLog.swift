import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Logs one line per answered request (`--access-log`): its method, path (never its query,
/// which could carry a credential), status, latency, client address and user agent, with the
/// request's trace; Cloud Logging reads them as the line's `httpRequest`
/// (``CloudLoggingJSONHandler``). It sits just after the HTTP codec, so it sees every request,
/// the router's and a pipeline route's alike.
final class AccessLog: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// A request read and not yet answered.
    private struct Pending {
        let method: String
        let path: String
        let userAgent: String?
        let trace: RequestTrace?
        let start: ContinuousClock.Instant
    }

    private let logger: Logger
    private var pending = CircularBuffer<Pending>()
    private var status: UInt = 0

    init(logger: Logger) {
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            pending.append(
                Pending(
                    method: head.method.rawValue, path: String(head.uri.prefix { $0 != "?" }),
                    userAgent: head.headers.first(name: "user-agent"),
                    trace: RequestTrace(
                        traceparent: head.headers.first(name: "traceparent"),
                        cloudTraceContext: head.headers.first(name: "x-cloud-trace-context")),
                    start: .now))
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            status = head.status.code
        case .end:
            if let request = pending.popFirst() { log(request, remote: context.channel.remoteAddress) }
        case .body:
            break
        }
        context.write(data, promise: promise)
    }

    private func log(_ request: Pending, remote: SocketAddress?) {
        let elapsed = ContinuousClock.now - request.start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var httpRequest: Logger.Metadata = [
            "requestMethod": "\(request.method)",
            "requestUrl": "\(request.path)",
            "status": "\(status)",
            "latency": "\(String(format: "%.6f", seconds))s",
        ]
        if let ip = remote?.ipAddress { httpRequest["remoteIp"] = "\(ip)" }
        if let userAgent = request.userAgent { httpRequest["userAgent"] = "\(userAgent)" }
        var metadata: Logger.Metadata = [CloudLoggingJSONHandler.httpRequestKey: .dictionary(httpRequest)]
        if let trace = request.trace { metadata.merge(trace.metadata) { _, trace in trace } }
        logger.info("\(request.method) \(request.path) \(status)", metadata: metadata)
    }
}
