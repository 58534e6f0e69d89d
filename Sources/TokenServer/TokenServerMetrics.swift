import CoreMetrics
import FleetServerSupport
import Foundation

/// Why a token or login request was refused, as counted in metrics.
public enum RefusalReason: String, Sendable, CaseIterable {
    /// No session, or one that is unknown, ended or expired.
    case unauthenticated
    /// The account's role does not get this kind of token.
    case wrongRole = "wrong_role"
    /// The account is not assigned to the resource.
    case notAssigned = "not_assigned"
    /// The id was the wildcard or not a plain Fleet Engine id.
    case badID = "bad_id"
    /// Too many failed logins.
    case throttled
}

/// The token server's Prometheus metrics: tokens issued by kind, issue latency, refusals by
/// reason, logins by result.
struct TokenServerMetrics: Sendable {
    private let issued: [String: Counter]
    private let refusals: [RefusalReason: Counter]
    private let logins: [Bool: Counter]
    private let issueLatency: CoreMetrics.Timer

    init(metrics: PrometheusMetrics) {
        let factory = metrics.factory
        var issued: [String: Counter] = [:]
        for kind in ResourceKind.allCases.map({ $0.tokenKind(id: "x").name }) + ["fleet-reader"] {
            issued[kind] = Counter(label: "fleetauth_tokens_issued_total", dimensions: [("kind", kind)], factory: factory)
        }
        self.issued = issued
        self.refusals = Dictionary(uniqueKeysWithValues: RefusalReason.allCases.map { reason in
            (reason, Counter(label: "fleetauth_token_refusals_total", dimensions: [("reason", reason.rawValue)], factory: factory))
        })
        self.logins = [
            true: Counter(label: "fleetauth_logins_total", dimensions: [("result", "success")], factory: factory),
            false: Counter(label: "fleetauth_logins_total", dimensions: [("result", "failure")], factory: factory),
        ]
        self.issueLatency = CoreMetrics.Timer(label: "fleetauth_token_issue_duration_seconds", factory: factory)
    }

    /// Counts a token of `kind` (its ``FleetTokens/TokenKind/name``) issued after `elapsed`.
    func tokenIssued(kind: String, elapsed: Duration) {
        issued[kind]?.increment()
        issueLatency.recordNanoseconds(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }

    /// Counts a refused request.
    func refused(_ reason: RefusalReason) {
        refusals[reason]?.increment()
    }

    /// Counts a login attempt that was checked (throttled ones are counted as refusals).
    func login(succeeded: Bool) {
        logins[succeeded]?.increment()
    }
}
