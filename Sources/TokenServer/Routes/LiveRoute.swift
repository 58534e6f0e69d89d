import Foundation
import Hummingbird
import ServerHTTP
import ServiceLifecycle

/// The `figures` event of `GET /v1/admin/live`.
struct LiveFiguresEvent: Encodable {
    /// Rates per second since the last event.
    struct Rates: Encodable {
        let issued: [String: Double]
        let refused: [String: Double]
        let limited: Double
    }

    /// Whether the server should be sent traffic (`/readyz`), and why not.
    let ready: Bool
    let reasons: [String]
    /// Tokens issued and requests refused since start.
    let issued: Int
    let refused: Int
    let limited: Int
    let recordsWaiting: Int
    /// `nil` in the first event.
    let perSecond: Rates?

    init(_ now: LiveFigures.Reading, since last: LiveFigures.Reading?, seconds: Double, reasons: [String]) {
        ready = reasons.isEmpty
        self.reasons = reasons
        issued = now.issued.values.reduce(0, +)
        refused = now.refused.values.reduce(0, +)
        limited = now.limited
        recordsWaiting = now.recordsWaiting
        perSecond = last.map { last in
            func rates(_ now: [String: Int], _ before: [String: Int]) -> [String: Double] {
                now.mapValues(Double.init).merging(before.mapValues { -Double($0) }, uniquingKeysWith: +).mapValues { $0 / seconds }
            }
            return Rates(issued: rates(now.issued, last.issued), refused: rates(now.refused, last.refused), limited: Double(now.limited - last.limited) / seconds)
        }
    }
}

extension TokenServer {
    /// How often `GET /v1/admin/live` sends its figures.
    static let liveInterval = Duration.seconds(1)

    /// `GET /v1/admin/live`: server-sent events for the console's live view, a `figures` event
    /// (``LiveFiguresEvent``) at once and then every second, until the page goes or the server
    /// drains (its last event says so), so that an open page never holds up a drain.
    func addLiveRoute(to admin: RouterGroup<TokenServerContext>) {
        admin.get("live") { _, _ in
            var headers = JSONResponse.headers
            headers[.contentType] = "text/event-stream"
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                let figures = self.issuer.metrics.live
                var last: LiveFigures.Reading?
                var lastTime = ContinuousClock.now
                while true {
                    let now = figures.reading, time = ContinuousClock.now
                    let draining = Task.isShuttingDownGracefully || self.options.lifecycle.isDraining
                    let reasons = (draining ? [ServerLifecycle.drainingReason] : []) + (await self.readinessProblems())
                    let event = LiveFiguresEvent(now, since: last, seconds: max((time - lastTime) / .seconds(1), 0.001), reasons: reasons)
                    try await writer.write(ServerSentEvent.encode("figures", json: try JSONResponse.encoder.encode(event)))
                    if draining { break }
                    (last, lastTime) = (now, time)
                    try await Task.sleep(for: Self.liveInterval)
                }
                try await writer.finish(nil)
            })
        }
    }
}
