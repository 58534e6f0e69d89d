import FleetAuthServerHTTP
import FleetAuthServerStorage
import Foundation
import Hummingbird
import ServiceLifecycle

/// The `figures` event of `GET /v1/admin/live`.
struct LiveFiguresEvent: Encodable {
    /// Rates per second since the last event.
    struct Rates: Encodable {
        let issued: [String: Double]
        let refused: [String: Double]
        /// 429s: token requests over their session's limit, and throttled logins.
        let limited: Double
    }

    /// Whether the server should be sent traffic (`/readyz`), and why not.
    let ready: Bool
    let reasons: [String]
    /// Tokens issued, requests refused and 429s since start.
    let issued: Int
    let refused: Int
    let limited: Int
    /// Records of token requests written since start, and waiting to be.
    let recordsWritten: Int
    let recordsWaiting: Int
    /// `nil` in the first event.
    let perSecond: Rates?

    /// The refusals answered 429.
    private static let limitReasons = [RefusalReason.requestLimit, .throttled].map(\.rawValue)

    init(_ now: LiveFigures.Reading, since last: LiveFigures.Reading?, seconds: Double, reasons: [String]) {
        func limitedCount(_ reading: LiveFigures.Reading) -> Int {
            Self.limitReasons.reduce(0) { $0 + reading.refused[$1, default: 0] }
        }
        ready = reasons.isEmpty
        self.reasons = reasons
        issued = now.issued.values.reduce(0, +)
        refused = now.refused.values.reduce(0, +)
        limited = limitedCount(now)
        recordsWritten = now.recordsWritten
        recordsWaiting = now.recordsWaiting
        perSecond = last.map { last in
            func rates(_ now: [String: Int], _ before: [String: Int]) -> [String: Double] {
                now.mapValues(Double.init).merging(before.mapValues { -Double($0) }, uniquingKeysWith: +).mapValues {
                    $0 / seconds
                }
            }
            return Rates(
                issued: rates(now.issued, last.issued), refused: rates(now.refused, last.refused),
                limited: Double(limitedCount(now) - limitedCount(last)) / seconds)
        }
    }
}

extension TokenServer {
    /// How often `GET /v1/admin/live` sends its figures.
    static let liveInterval = Duration.seconds(1)
    /// How often, between two events, the stream looks whether the server drains.
    static let liveDrainCheck = Duration.milliseconds(100)

    /// `GET /v1/admin/live`: server-sent events for the console's live view, a `figures` event
    /// (``LiveFiguresEvent``) at once and then every second, until the page goes or the server
    /// drains: within a tenth of a second of the drain, a last event says so and the stream
    /// ends, so that an open page does not hold up the drain. A draining server answers 503
    /// with `Retry-After` instead of a new stream.
    func addLiveRoute(to admin: RouterGroup<TokenServerContext>) {
        admin.get("live") { _, _ in
            guard !self.isDraining else {
                throw APIError(
                    .unavailable, "the server is shutting down; its replacement has the live figures",
                    retryAfter: DatabaseUnavailable.momentaryRetryAfter)
            }
            var headers = JSONResponse.headers
            headers[.contentType] = "text/event-stream"
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody { writer in
                    let figures = self.issuer.metrics.live
                    var last: LiveFigures.Reading?
                    var lastTime = ContinuousClock.now
                    while true {
                        let now = figures.reading, time = ContinuousClock.now
                        let draining = self.isDraining
                        let reasons =
                            (draining ? [ServerLifecycle.drainingReason] : []) + (await self.readinessProblems())
                        let event = LiveFiguresEvent(
                            now, since: last, seconds: max((time - lastTime) / .seconds(1), 0.001), reasons: reasons)
                        try await writer.write(
                            ServerSentEvent.encode("figures", json: try JSONResponse.encoder.encode(event)))
                        if draining { break }
                        (last, lastTime) = (now, time)
                        let next = time + Self.liveInterval
                        while ContinuousClock.now < next, !self.isDraining {
                            try await Task.sleep(for: min(Self.liveDrainCheck, next - ContinuousClock.now))
                        }
                    }
                    try await writer.finish(nil)
                })
        }
    }

    /// Whether the server is on its way out (SIGTERM, or a graceful shutdown of its service group).
    private var isDraining: Bool { Task.isShuttingDownGracefully || options.lifecycle.isDraining }
}
