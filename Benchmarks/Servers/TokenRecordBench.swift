import ArgumentParser
import FleetAuthServerHTTP
import FleetAuthServerStorage
import Foundation
import Logging
import SQLKit
import TokenServer

/// `fleetauth-bench token-record`: "who holds a valid token for vehicle X" against a record of
/// a million tokens (the promise: at most 50 ms), on SQLite or PostgreSQL. The records are
/// spread over 30 days and the vehicles, as a fleet's month would leave them; the queries ask
/// for vehicles at random, through the store the API and `fleetauth audit` use. It also times
/// an account's questions, which read the record without an index.
struct TokenRecordBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token-record",
        abstract:
            "The record of tokens: who holds a valid token for a vehicle, among a million records (SQLite unless --database-url)."
    )

    @Option(help: "Records written before the queries.")
    var records = 1_000_000

    @Option(help: "Vehicles the records are spread over.")
    var vehicles = 10_000

    @Option(help: "Queries timed.")
    var queries = 200

    @Option(
        help:
            "A PostgreSQL URL to keep the record in instead of a temporary SQLite file (the run deletes its rows at the end)."
    )
    var databaseURL: String?

    /// The promise (docs/performance.md).
    static let queryLimit = Duration.milliseconds(50)

    func validate() throws {
        guard records >= 1, vehicles >= 1, queries >= 1 else {
            throw ValidationError("--records, --vehicles and --queries must be at least 1")
        }
    }

    func run() async throws {
        let folder = try BenchFolder.create()
        defer { BenchFolder.remove(folder) }
        var logger = Logger(label: "bench.token-record", factory: DeferredMetadataLogHandler.standardError)
        logger.logLevel = .warning
        let location =
            databaseURL.map { DatabaseLocation.postgres(url: $0) } ?? .sqlite(path: folder + "/token-server.sqlite")
        let store = try await TokenServerStore.open(location, logger: logger)
        let account = "bench-record-\(ProcessInfo.processInfo.processIdentifier)"
        let now = Int64(Date().timeIntervalSince1970)
        do {
            let writing = ContinuousClock.now
            let ids = TokenRecordIDs()
            for start in stride(from: 0, to: records, by: 500) {
                try await store.append(
                    (start..<min(start + 500, records)).map { index in
                        // Oldest first, one every 30 days ÷ records; tokens of an hour.
                        let recordedAt = now - Int64(30 * 86_400) + Int64(index) * Int64(30 * 86_400) / Int64(records)
                        return TokenRecord(
                            id: ids.next(at: Date(timeIntervalSince1970: Double(recordedAt))), recordedAt: recordedAt,
                            outcome: .issued, reason: nil, account: account,
                            role: "driver", kind: "driver",
                            resource: Resource(.vehicle, id: "bench-vehicle-\(Int.random(in: 0..<vehicles))"),
                            keyID: "bench-key",
                            issuedAt: recordedAt, expiresAt: recordedAt + 3600, sessionID: "s-0123456789abcdef",
                            clientAddress: "127.0.0.1")
                    })
            }
            let written = ContinuousClock.now - writing
            var times: [Duration] = []
            var found = 0
            for _ in 0..<queries {
                let vehicle = Resource(.vehicle, id: "bench-vehicle-\(Int.random(in: 0..<vehicles))")
                let started = ContinuousClock.now
                found += try await store.records(
                    matching: TokenRecordQuery(resource: vehicle, validAt: now, limit: 101)
                ).count
                times.append(ContinuousClock.now - started)
            }
            times.sort()
            func milliseconds(_ duration: Duration) -> String {
                String(
                    format: "%.2f ms",
                    Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000)
            }
            print(
                "\(location.kind): \(records) records over \(vehicles) vehicles written in \(written) (\(String(format: "%.0f", Double(records) / (Double(written.components.seconds) + Double(written.components.attoseconds) / 1e18))) records/s)"
            )
            print(
                "who holds a valid token for a vehicle, \(queries) queries (\(found) valid tokens found): median \(milliseconds(times[times.count / 2])), p99 \(milliseconds(times[min(times.count - 1, times.count * 99 / 100)])), slowest \(milliseconds(times.last!)) (promise ≤ \(Self.queryLimit))"
            )
            // The record has no index of accounts (schema version 5): an account's question reads
            // the record newest first until its page is full, within `since` when given.
            let accountQuestions: [(String, TokenRecordQuery)] = [
                ("an account's newest 100", TokenRecordQuery(account: account, limit: 100)),
                ("an account with no records, over the whole record", TokenRecordQuery(account: "bench-nobody")),
                (
                    "an account with no records, since a day ago",
                    TokenRecordQuery(account: "bench-nobody", since: now - 86_400)
                ),
            ]
            for (question, query) in accountQuestions {
                var accountTimes: [Duration] = []
                for _ in 0..<5 {
                    let started = ContinuousClock.now
                    _ = try await store.records(matching: query)
                    accountTimes.append(ContinuousClock.now - started)
                }
                print("\(question): median of 5 \(milliseconds(accountTimes.sorted()[2]))")
            }
        } catch {
            try? await store.recordDatabase.sql.raw(
                "DELETE FROM token_server_token_records WHERE account = \(bind: account)"
            ).run()
            await store.close()
            throw error
        }
        try await store.recordDatabase.sql.raw(
            "DELETE FROM token_server_token_records WHERE account = \(bind: account)"
        ).run()
        await store.close()
    }
}
