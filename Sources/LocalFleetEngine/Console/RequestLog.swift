import FleetAuthLocking
import FleetAuthServerHTTP
import FleetTokens
import Foundation
import HummingbirdCore

/// One call through either door as the console shows it: what was asked, by whom (the verified
/// token's signer, role and claims, never the token) and what the engine answered.
struct RequestRecord: Sendable, Encodable {
    /// The call's place in the log, counting from 1 since start.
    let sequence: UInt64
    /// When the call ended.
    let time: Date
    /// `rest` or `grpc`.
    let door: String
    /// The API method, e.g. `UpdateVehicle`.
    let method: String
    /// The id of the resource the call named (empty for a collection).
    let resource: String
    /// The caller's token once verified: kept whole (a reference to what the verifier made) and
    /// read only when the record is shown, so that recording a call allocates nothing for it.
    /// Never encoded: only the parts below are.
    let token: VerifiedToken?
    /// `OK`, or the refusal's status, e.g. `PERMISSION_DENIED`.
    let status: String
    /// The HTTP status the REST door answers with (200, 403, …).
    let httpStatus: Int
    /// The rule that refused the call, as the refusal says it; `nil` when allowed.
    let rule: String?
    /// How long the call took, in microseconds.
    let latencyMicroseconds: Int64
    /// The body the call sent, as Google's HTTP mapping defines it; `nil` for none, or for a
    /// body over ``RequestBody/maximumKeptBytes`` or not a JSON object.
    let body: RequestBody?
    /// The id of the fault a test injected (`/emulator/v1/faults`) that the call met: its
    /// refusal, its delay, or both.
    let injectedFault: Int?

    /// The email of the account that signed the token, when the token was verified.
    var signer: String? { token?.claims.issuer }
    /// The signer's role, short (`driver`), when the token was verified.
    var role: String? { token?.role.shortName }

    /// The token's authorization claims (`vehicleid`, `tripid`, …) and its expiry.
    var claims: [String: String]? {
        guard let token else { return nil }
        var claims: [String: String] = [:]
        for (claim, id) in token.authorization.namedIDs {
            claims[claim] = claims[claim].map { "\($0),\(id)" } ?? id
        }
        claims["exp"] = String(token.claims.expiresAt)
        return claims
    }

    private enum CodingKeys: String, CodingKey {
        case sequence, time, door, method, resource, signer, role, claims, status, httpStatus, rule,
            latencyMicroseconds, body, injectedFault
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(time, forKey: .time)
        try container.encode(door, forKey: .door)
        try container.encode(method, forKey: .method)
        try container.encode(resource, forKey: .resource)
        try container.encodeIfPresent(signer, forKey: .signer)
        try container.encodeIfPresent(role, forKey: .role)
        try container.encodeIfPresent(claims, forKey: .claims)
        try container.encode(status, forKey: .status)
        try container.encode(httpStatus, forKey: .httpStatus)
        try container.encodeIfPresent(rule, forKey: .rule)
        try container.encode(latencyMicroseconds, forKey: .latencyMicroseconds)
        try container.encodeIfPresent(body?.value, forKey: .body)
        try container.encodeIfPresent(injectedFault, forKey: .injectedFault)
    }
}

/// Which records a page of the log holds: every filter given must match.
struct RequestFilter: Sendable, Equatable {
    /// The API method, exactly.
    var method: String?
    /// A status (`PERMISSION_DENIED`), an HTTP status (`403`), or `refused` for every refusal.
    var status: String?
    /// The signer's short role, exactly.
    var role: String?
    /// The resource id, exactly.
    var resource: String?

    /// The filter of a query's `method`, `status`, `role` and `resource` (an empty one filters
    /// nothing), as the console's requests table and `/emulator/v1/calls` take them.
    init(query: FlatDictionary<Substring, Substring>) {
        func given(_ name: String) -> String? {
            guard let value = query.get(name), !value.isEmpty else { return nil }
            return value
        }
        self.init(method: given("method"), status: given("status"), role: given("role"), resource: given("resource"))
    }

    /// A filter of the fields given.
    init(method: String? = nil, status: String? = nil, role: String? = nil, resource: String? = nil) {
        self.method = method
        self.status = status
        self.role = role
        self.resource = resource
    }

    /// Whether `record` passes.
    func matches(_ record: RequestRecord) -> Bool {
        if let method, record.method != method { return false }
        if let role, record.role != role { return false }
        if let resource, record.resource != resource { return false }
        if let status {
            switch status {
            case "refused": if record.status == "OK" { return false }
            case record.status, String(record.httpStatus): break
            default: return false
            }
        }
        return true
    }
}

/// The last calls through either door, newest kept, at most ``capacity``: what the console's
/// requests table pages through. Recording is a lock and a slot in a ring, so that it costs a
/// location update next to nothing.
final class RequestLog: Sendable {
    /// How many calls are kept.
    let capacity: Int
    private let ring: Locked<Ring>

    private struct Ring {
        var records: [RequestRecord] = []
        /// Where the next record goes once the ring is full.
        var next = 0
        /// How many calls were ever recorded (the last one's sequence).
        var count: UInt64 = 0
        /// How many of them were refused.
        var refused: UInt64 = 0
    }

    /// The engine's clock, which the records' times follow.
    private let clock: @Sendable () -> Date

    /// A log keeping the last `capacity` calls, timed by `clock`.
    init(capacity: Int = 5_000, clock: @escaping @Sendable () -> Date = { Date() }) {
        precondition(capacity > 0, "a request log keeps at least one call")
        self.capacity = capacity
        self.clock = clock
        self.ring = Locked(Ring())
    }

    /// Records a call of `method` through `door`, which ended now as `note` says; the record
    /// gets the next sequence number.
    func record(door: String, method: String, note: CallNote, refusal: APIError?, elapsed: Duration) {
        let time = clock()
        let latency = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        ring.withLock { ring in
            ring.count += 1
            if refusal != nil { ring.refused += 1 }
            let record = RequestRecord(
                sequence: ring.count, time: time, door: door, method: method, resource: note.resource,
                token: note.token,
                status: refusal?.code.rawValue ?? "OK", httpStatus: refusal.map { Int($0.status.code) } ?? 200,
                rule: refusal?.message,
                latencyMicroseconds: latency, body: note.body, injectedFault: note.appliedFault)
            if ring.records.count < capacity {
                ring.records.append(record)
            } else {
                ring.records[ring.next] = record
                ring.next = (ring.next + 1) % capacity
            }
        }
    }

    /// Forgets every call recorded (a harness's reset); the sequence numbers go on.
    func removeAll() {
        ring.withLock { ring in
            ring.records.removeAll()
            ring.next = 0
        }
    }

    /// How many calls were ever recorded (the newest record's sequence), and how many of them
    /// were refused.
    var totals: RequestTotals { ring.withLock { RequestTotals(calls: $0.count, refused: $0.refused) } }

    /// Up to `limit` records that pass `filter`, newest first, older than `before` (a
    /// sequence; `nil`: from the newest).
    func page(_ filter: RequestFilter, before: UInt64?, limit: Int) -> [RequestRecord] {
        pageWithTotals(filter, before: before, limit: limit).page
    }

    /// ``page(_:before:limit:)`` and the ``totals`` at the same moment, read under one lock: a
    /// page that knows the newest call it could show.
    func pageWithTotals(_ filter: RequestFilter, before: UInt64?, limit: Int) -> (
        page: [RequestRecord], totals: RequestTotals
    ) {
        ring.withLock { ring in
            var page: [RequestRecord] = []
            let total = ring.records.count
            // Newest first: the slot before `next`, going back round the ring.
            for step in 0..<total where page.count < limit {
                let record = ring.records[(ring.next - 1 - step + 2 * total) % total]
                if let before, record.sequence >= before { continue }
                if filter.matches(record) { page.append(record) }
            }
            return (page, RequestTotals(calls: ring.count, refused: ring.refused))
        }
    }
}

/// How many calls a ``RequestLog`` has recorded since start.
struct RequestTotals: Sendable, Encodable, Equatable {
    /// Every call: the newest record's sequence.
    let calls: UInt64
    /// The refused ones.
    let refused: UInt64
}
