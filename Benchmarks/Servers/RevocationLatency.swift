import CommandSupport
import Foundation

/// How long a revocation takes to reach another replica: two token servers (`fleetauth
/// token-server` processes) on one PostgreSQL; a driver's assignment is removed through one
/// replica's admin API (B), which must refuse the driver's next token request at once, and the
/// other (A), which served the grant from memory, is asked again and again until it refuses.
/// The latency is from B's answer to A's first refusal. Then the driver is assigned again and A
/// asked until it grants, so that every revocation starts from a grant A holds in memory.
struct RevocationLatency {
    /// The replica under load, whose memory must let go.
    let replica: Int
    /// The replica the revocations are made on.
    let revoker: Int
    /// The revoker's admin key.
    let adminKey: String

    /// What the revocations found.
    struct Result: Encodable {
        let revocations: Int
        let p50Milliseconds: Double
        let p99Milliseconds: Double
        let maxMilliseconds: Double
        /// Revocations the revoking replica itself did not refuse at once (the target: none).
        let revokerGranted: Int
    }

    /// Revokes and restores the assignments of `drivers`, one after another, `count` times.
    func measure(count: Int, drivers: [BenchFleet.Driver]) async throws -> Result {
        var latencies: [Double] = [], revokerGranted = 0
        for index in 0..<count {
            let driver = drivers[index % drivers.count]
            try await waitUntil(replica, answers: 200, to: driver)
            let revoked = try await admin("DELETE", driver, body: nil)
            guard revoked == 204 else { throw CommandFailure("the revoking replica answered \(revoked) to an unassignment") }
            let answered = ContinuousClock.now
            if try await tokenStatus(revoker, driver) != 403 { revokerGranted += 1 }
            try await waitUntil(replica, answers: 403, to: driver)
            let elapsed = ContinuousClock.now - answered
            latencies.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
            let assigned = try await admin("PUT", driver, body: #"{"username":"\#(driver.username)"}"#)
            guard assigned == 200 else { throw CommandFailure("the revoking replica answered \(assigned) to an assignment") }
        }
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        return Result(
            revocations: count, p50Milliseconds: percentile(0.5), p99Milliseconds: percentile(0.99), maxMilliseconds: sorted.last ?? 0,
            revokerGranted: revokerGranted)
    }

    /// Asks `port` for `driver`'s token until it answers `status` (10 s at most).
    private func waitUntil(_ port: Int, answers status: Int, to driver: BenchFleet.Driver) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while try await tokenStatus(port, driver) != status {
            guard ContinuousClock.now < deadline else {
                throw CommandFailure("the replica on port \(port) did not answer \(status) for \(driver.vehicleID) within 10 s")
            }
        }
    }

    private func tokenStatus(_ port: Int, _ driver: BenchFleet.Driver) async throws -> Int {
        try await RawHTTP.exchange(port: port, head: [
            "GET /v1/tokens/driver/\(driver.vehicleID) HTTP/1.1", "Host: 127.0.0.1", "Authorization: Bearer \(driver.sessionToken)",
            "Connection: close",
        ]).status
    }

    /// `method /v1/admin/vehicles/{vehicle}/driver` on the revoker.
    private func admin(_ method: String, _ driver: BenchFleet.Driver, body: String?) async throws -> Int {
        var head = [
            "\(method) /v1/admin/vehicles/\(driver.vehicleID)/driver HTTP/1.1", "Host: 127.0.0.1", "Authorization: Bearer \(adminKey)",
            "Connection: close",
        ]
        if let body { head += ["Content-Type: application/json", "Content-Length: \(body.utf8.count)"] }
        return try await RawHTTP.exchange(port: revoker, head: head, body: body ?? "").status
    }
}
