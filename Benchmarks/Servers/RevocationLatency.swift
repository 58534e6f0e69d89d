import CommandSupport
import Foundation

/// How long a revocation takes to reach another replica: two token servers (`fleetauth
/// token-server` processes) on one PostgreSQL. A driver loses its token through one replica
/// (B), in turn by each of the three ways there are: its assignment removed, its session logged
/// out, its account deleted. B must refuse the driver's next token request at once; the other
/// replica (A), which served the grant from memory, is asked again and again until it refuses.
/// The latency is from B's answer to A's first refusal. Then the driver is given back what it
/// lost (assigned again, logged in again, or made again, assigned and logged in) and A asked
/// until it grants, so that every revocation starts from a grant A holds in memory.
struct RevocationLatency {
    /// The replica under load, whose memory must let go.
    let replica: Int
    /// The replica the revocations are made on.
    let revoker: Int
    /// The revoker's admin key.
    let adminKey: String

    /// The ways a driver loses its token.
    enum Kind: String, CaseIterable, Encodable {
        /// `DELETE /v1/admin/vehicles/{id}/driver`: the replica answers 403.
        case unassignment
        /// `DELETE /v1/sessions/current`: the replica answers 401.
        case logout
        /// `DELETE /v1/admin/accounts/{username}`: the replica answers 401.
        case accountDeletion

        /// What a replica answers the driver once the revocation is heard.
        var refusal: Int { self == .unassignment ? 403 : 401 }
    }

    /// Latencies of one kind, or of all.
    struct Latencies: Encodable {
        let revocations: Int
        let p50Milliseconds: Double
        let p99Milliseconds: Double
        let maxMilliseconds: Double

        /// The percentiles of `milliseconds`, one latency per revocation.
        init(_ milliseconds: [Double]) {
            let sorted = milliseconds.sorted()
            func percentile(_ p: Double) -> Double {
                sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
            }
            revocations = sorted.count
            p50Milliseconds = percentile(0.5)
            p99Milliseconds = percentile(0.99)
            maxMilliseconds = sorted.last ?? 0
        }
    }

    /// What the revocations found.
    struct Result: Encodable {
        let all: Latencies
        let byKind: [String: Latencies]
        /// Revocations the revoking replica itself did not refuse at once (the target: none).
        let revokerGranted: Int
    }

    /// Revokes and gives back the tokens of `drivers`, one after another, `count` times, the
    /// kinds of revocation taking turns.
    func measure(count: Int, drivers: [BenchFleet.Driver]) async throws -> Result {
        var latencies: [Kind: [Double]] = [:], revokerGranted = 0
        var sessions = Dictionary(uniqueKeysWithValues: drivers.map { ($0.username, $0.sessionToken) })
        for index in 0..<count {
            let driver = drivers[index % drivers.count]
            let kind = Kind.allCases[index % Kind.allCases.count]
            let session = sessions[driver.username]!
            try await waitUntil(replica, answers: 200, to: driver, session: session)
            try await revoke(kind, of: driver, session: session)
            let answered = ContinuousClock.now
            if try await tokenStatus(revoker, driver, session: session) != kind.refusal { revokerGranted += 1 }
            try await waitUntil(replica, answers: kind.refusal, to: driver, session: session)
            let elapsed = ContinuousClock.now - answered
            latencies[kind, default: []].append(
                Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
            sessions[driver.username] = try await restore(kind, of: driver, session: session)
        }
        return Result(
            all: Latencies(latencies.values.flatMap { $0 }),
            byKind: Dictionary(uniqueKeysWithValues: latencies.map { ($0.key.rawValue, Latencies($0.value)) }),
            revokerGranted: revokerGranted)
    }

    /// Takes `driver`'s token away by `kind`, on the revoker.
    private func revoke(_ kind: Kind, of driver: BenchFleet.Driver, session: String) async throws {
        switch kind {
        case .unassignment:
            try await send("DELETE", "/v1/admin/vehicles/\(driver.vehicleID)/driver", bearer: adminKey, expecting: 204)
        case .logout: try await send("DELETE", "/v1/sessions/current", bearer: session, expecting: 204)
        case .accountDeletion:
            try await send("DELETE", "/v1/admin/accounts/\(driver.username)", bearer: adminKey, expecting: 204)
        }
    }

    /// Gives `driver` back what `kind` took, on the revoker; returns its session now.
    private func restore(_ kind: Kind, of driver: BenchFleet.Driver, session: String) async throws -> String {
        let account = #"{"username":"\#(driver.username)","password":"\#(driver.password)","role":"driver"}"#
        let assignment = #"{"username":"\#(driver.username)"}"#
        switch kind {
        case .unassignment:
            try await send(
                "PUT", "/v1/admin/vehicles/\(driver.vehicleID)/driver", bearer: adminKey, body: assignment,
                expecting: 200)
            return session
        case .logout:
            return try await logIn(driver)
        case .accountDeletion:
            try await send("POST", "/v1/admin/accounts", bearer: adminKey, body: account, expecting: 201)
            try await send(
                "PUT", "/v1/admin/vehicles/\(driver.vehicleID)/driver", bearer: adminKey, body: assignment,
                expecting: 200)
            return try await logIn(driver)
        }
    }

    /// Logs `driver` in on the revoker and returns the new session token.
    private func logIn(_ driver: BenchFleet.Driver) async throws -> String {
        let body = try await send(
            "POST", "/v1/sessions", body: #"{"username":"\#(driver.username)","password":"\#(driver.password)"}"#,
            expecting: 201)
        struct Session: Decodable { let sessionToken: String }
        return try JSONDecoder().decode(Session.self, from: Data(body.utf8)).sessionToken
    }

    /// Asks `port` for `driver`'s token with `session` until it answers `status` (10 s at most).
    private func waitUntil(_ port: Int, answers status: Int, to driver: BenchFleet.Driver, session: String) async throws
    {
        let deadline = ContinuousClock.now + .seconds(10)
        while try await tokenStatus(port, driver, session: session) != status {
            guard ContinuousClock.now < deadline else {
                throw CommandFailure(
                    "the replica on port \(port) did not answer \(status) for \(driver.vehicleID) within 10 s")
            }
        }
    }

    private func tokenStatus(_ port: Int, _ driver: BenchFleet.Driver, session: String) async throws -> Int {
        try await RawHTTP.exchange(
            port: port,
            head: [
                "GET /v1/tokens/driver/\(driver.vehicleID) HTTP/1.1", "Host: 127.0.0.1",
                "Authorization: Bearer \(session)", "Connection: close",
            ]
        ).status
    }

    /// `method path` on the revoker, failing unless it answers `status`; returns the body.
    @discardableResult
    private func send(
        _ method: String, _ path: String, bearer: String? = nil, body: String? = nil, expecting status: Int
    ) async throws -> String {
        var head = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
        if let bearer { head.append("Authorization: Bearer \(bearer)") }
        if let body { head += ["Content-Type: application/json", "Content-Length: \(body.utf8.count)"] }
        let response = try await RawHTTP.exchange(port: revoker, head: head, body: body ?? "")
        guard response.status == status else {
            throw CommandFailure("the revoking replica answered \(response.status) to \(method) \(path)")
        }
        return response.body
    }
}
