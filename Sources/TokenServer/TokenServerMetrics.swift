import CoreMetrics
import FleetAuthServerHTTP
import Foundation

/// Why a token or login request was refused, as counted in metrics.
package enum RefusalReason: String, Sendable, CaseIterable {
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
    /// An ID token that failed verification (which rule: `fleetauth_id_token_refusals_total`).
    case invalidIDToken = "invalid_id_token"
    /// A valid ID token of an identity no account is linked to.
    case unlinkedIdentity = "unlinked_identity"
    /// An ID token whose issuer's keys could not be fetched.
    case issuerUnavailable = "issuer_unavailable"
    /// IAM refused to sign or could not be reached (503).
    case signingFailed = "signing_failed"
    /// The database did not answer or lost the connection (503).
    case databaseUnavailable = "database_unavailable"
    /// The record of tokens cannot be written and its buffer is full (503).
    case recordUnavailable = "record_unavailable"
    /// The session asked for more tokens a minute than `--token-requests-per-minute` (429).
    case requestLimit = "request_limit"
}

/// How a caller logged in.
enum LoginMethod: String, Sendable, CaseIterable {
    /// Username and password, `POST /v1/sessions`.
    case password
    /// An OpenID Connect ID token sent as the bearer of a token request.
    case oidc
}

/// The token server's Prometheus metrics: tokens issued by kind, issue latency, refusals by
/// reason (and ID token refusals by rule), requests over a session's limit, logins by method
/// and result.
struct TokenServerMetrics: Sendable {
    private struct LoginKey: Hashable {
        let method: LoginMethod
        let succeeded: Bool
    }

    private let issued: [String: Counter]
    private let refusals: [RefusalReason: Counter]
    private let idTokenRefusals: [String: Counter]
    private let logins: [LoginKey: Counter]
    private let issueLatency: CoreMetrics.Timer
    private let limited: Counter
    private let recordsWrittenCounter: Counter
    private let recordWritesCounter: Counter
    private let recordWriteFailures: Counter
    private let recordBufferFullCounter: Counter
    private let recordsWaitingGauge: Gauge
    private let recordsDroppedCounter: Counter
    private let recordCheckpointsCounter: Counter
    /// The same counts, read by the console's live view.
    let live = LiveFigures()

    init(metrics: PrometheusMetrics) {
        let factory = metrics.factory
        var issued: [String: Counter] = [:]
        for kind in AccountRole.allCases.map({ $0.tokenKind(id: "x").name }) {
            issued[kind] = Counter(
                label: "fleetauth_tokens_issued_total", dimensions: [("kind", kind)], factory: factory)
        }
        self.issued = issued
        self.refusals = Dictionary(
            uniqueKeysWithValues: RefusalReason.allCases.map { reason in
                (
                    reason,
                    Counter(
                        label: "fleetauth_token_refusals_total", dimensions: [("reason", reason.rawValue)],
                        factory: factory)
                )
            })
        self.idTokenRefusals = Dictionary(
            uniqueKeysWithValues: IDTokenRefusal.rules.map { rule in
                (
                    rule,
                    Counter(label: "fleetauth_id_token_refusals_total", dimensions: [("rule", rule)], factory: factory)
                )
            })
        var logins: [LoginKey: Counter] = [:]
        for method in LoginMethod.allCases {
            for succeeded in [true, false] {
                logins[LoginKey(method: method, succeeded: succeeded)] = Counter(
                    label: "fleetauth_logins_total",
                    dimensions: [("method", method.rawValue), ("result", succeeded ? "success" : "failure")],
                    factory: factory
                )
            }
        }
        self.logins = logins
        self.issueLatency = CoreMetrics.Timer(label: "fleetauth_token_issue_duration_seconds", factory: factory)
        self.limited = Counter(label: "fleetauth_token_requests_limited_total", factory: factory)
        self.recordsWrittenCounter = Counter(label: "fleetauth_token_records_written_total", factory: factory)
        self.recordWritesCounter = Counter(label: "fleetauth_token_record_writes_total", factory: factory)
        self.recordWriteFailures = Counter(label: "fleetauth_token_record_write_failures_total", factory: factory)
        self.recordBufferFullCounter = Counter(label: "fleetauth_token_record_buffer_full_total", factory: factory)
        self.recordsWaitingGauge = Gauge(label: "fleetauth_token_records_waiting", factory: factory)
        self.recordsDroppedCounter = Counter(label: "fleetauth_token_records_dropped_total", factory: factory)
        self.recordCheckpointsCounter = Counter(label: "fleetauth_token_record_checkpoints_total", factory: factory)
    }

    /// Counts records dropped: refusals past their share of the buffer, or a record the
    /// database refused alone.
    func recordsDropped(_ count: Int) {
        recordsDroppedCounter.increment(by: count)
    }

    /// Counts one batch of the record written (one statement, or one a record when the
    /// database refused the batch whole) and the records it wrote: records written ÷ writes is
    /// how many a batch carries.
    func recordsWritten(_ count: Int) {
        recordWritesCounter.increment()
        recordsWrittenCounter.increment(by: count)
        live.recordsWritten(count)
    }

    /// Counts a copy of the whole of the record's SQLite WAL back into its file.
    func recordCheckpointed() {
        recordCheckpointsCounter.increment()
    }

    /// Counts a write of the record the store refused (its records wait in memory).
    func recordWriteFailed() {
        recordWriteFailures.increment()
    }

    /// Counts a token request refused because the record's buffer is full.
    func recordBufferFull() {
        recordBufferFullCounter.increment()
    }

    /// Sets how many records wait to be written.
    func recordsWaiting(_ count: Int) {
        recordsWaitingGauge.record(count)
        live.recordsWaiting(count)
    }

    /// Counts a token of `kind` (its ``FleetTokens/TokenKind/name``) issued after `elapsed`.
    func tokenIssued(kind: String, elapsed: Duration) {
        issued[kind]?.increment()
        live.tokenIssued(kind: kind)
        issueLatency.recordNanoseconds(
            elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }

    /// Counts a refused request.
    func refused(_ reason: RefusalReason) {
        refusals[reason]?.increment()
        live.refused(reason)
    }

    /// Counts a token request refused for its session's limit (also a refusal for
    /// `request_limit`): the figure to alert on when an app loops.
    func tokenRequestLimited() {
        limited.increment()
    }

    /// Counts an ID token that broke `rule` (an ``IDTokenRefusal/rule``).
    func idTokenRefused(rule: String) {
        idTokenRefusals[rule]?.increment()
    }

    /// Counts a login attempt that was checked (throttled ones are counted as refusals): a
    /// password login, or a token request with an ID token.
    func login(_ method: LoginMethod, succeeded: Bool) {
        logins[LoginKey(method: method, succeeded: succeeded)]?.increment()
    }
}
