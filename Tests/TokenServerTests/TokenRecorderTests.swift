import FleetAuthServerHTTP
import FleetAuthServerStorage
import Foundation
import NIOCore
import NIOPosix
import SQLKit
import TestSupport
import Testing

@testable import TokenServer

/// The record's writer (``TokenRecorder``) on its own, beside a real store: how records are
/// grouped into writes.
@Suite("The record's writer")
struct TokenRecorderTests {
    @Test(
        "the records of what one turn of an event loop answers go in one write, each request told once it is written",
        arguments: StoreBackend.allCases)
    func oneWritePerTurn(backend: StoreBackend) async throws {
        try await TestDatabase.with(backend) { database in
            let store = try await TokenServerStore.open(database.location, logger: TestDatabase.logger)
            let prometheus = PrometheusMetrics()
            let recorder = TokenRecorder(
                settings: TokenRecorder.Settings(), store: store, metrics: TokenServerMetrics(metrics: prometheus),
                logger: TestDatabase.logger, now: { Date() })
            let loop = MultiThreadedEventLoopGroup.singleton.next()
            let count = 12
            let promises = (0..<count).map { _ in loop.makePromise(of: Void.self) }
            let vehicles = (0..<count).map { "v-\($0)" }
            loop.execute {
                for (vehicle, promise) in zip(vehicles, promises) {
                    recorder.issued(Self.record(for: vehicle, stampedBy: recorder)) { promise.completeWith($0) }
                    // The next request's work (a signature takes about as long): time enough for
                    // a write started at once to take the records so far without the rest.
                    usleep(2_000)
                }
            }
            for promise in promises { try await promise.futureResult.get() }

            let written = try await store.records(matching: TokenRecordQuery(outcome: .issued))
            #expect(Set(written.compactMap(\.resource?.id)) == Set(vehicles), "every request waited for its own record")
            let metrics = prometheus.exposition()
            #expect(PrometheusText.value(of: "fleetauth_token_records_written_total", in: metrics) == Double(count))
            #expect(PrometheusText.value(of: "fleetauth_token_record_writes_total", in: metrics) == 1)
            await recorder.finish()
            await store.close()
        }
    }

    @Test("on SQLite the record's file copies its WAL back every 10,000 pages, the grants' file at SQLite's 1,000")
    func recordCheckpoints() async throws {
        try await TestDatabase.with(.sqlite) { database in
            let store = try await TokenServerStore.open(database.location, logger: TestDatabase.logger)
            func checkpointPages(of database: ServerDatabase) async throws -> Int? {
                try await database.writes.raw("PRAGMA wal_autocheckpoint").first()?.decode(
                    column: "wal_autocheckpoint", as: Int.self)
            }
            #expect(try await checkpointPages(of: store.recordDatabase) == TokenServerStore.recordCheckpointPages)
            #expect(try await checkpointPages(of: store.database) == 1000)
            await store.close()
        }
    }

    /// A driver token's record for `vehicle`.
    private static func record(for vehicle: String, stampedBy recorder: TokenRecorder) -> TokenRecord {
        let (id, recordedAt) = recorder.stamp()
        return TokenRecord(
            id: id, recordedAt: recordedAt, outcome: .issued, reason: nil, account: "ann", role: "driver",
            kind: "driver", resource: Resource(.vehicle, id: vehicle), keyID: "k1", issuedAt: recordedAt,
            expiresAt: recordedAt + 3600, sessionID: nil, clientAddress: "127.0.0.1")
    }
}
