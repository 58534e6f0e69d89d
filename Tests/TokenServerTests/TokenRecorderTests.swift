import FleetAuthServerHTTP
import FleetAuthServerStorage
import Foundation
import Logging
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
            let recorder = Self.recorder(writingTo: store, countingIn: prometheus)
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

    @Test(
        "on SQLite the record's WAL is copied back into its file beside the writes, every 2,000 records, and then started over; a commit copies it only past 20,000 pages"
    )
    func recordCheckpoints() async throws {
        try await TestDatabase.with(.sqlite) { database in
            guard case .sqlite(let path) = database.location else { return }
            let store = try await TokenServerStore.open(database.location, logger: TestDatabase.logger)
            let prometheus = PrometheusMetrics()
            let recorder = Self.recorder(writingTo: store, countingIn: prometheus)
            let file = URL(fileURLWithPath: path).deletingLastPathComponent()
                .appendingPathComponent(TokenServerStore.recordFileName).path
            var failure: (any Error)?
            do {
                try await Self.checkCheckpoints(of: store, file: file, by: recorder, countedIn: prometheus)
            } catch {
                failure = error
            }
            await recorder.finish()
            await store.close()
            if let failure { throw failure }
        }
    }

    /// Writes records through `recorder` into `store`'s record, whose SQLite file is `file`,
    /// across three checkpoints, checking when the WAL is copied and that it starts over.
    private static func checkCheckpoints(
        of store: TokenServerStore, file: String, by recorder: TokenRecorder, countedIn prometheus: PrometheusMetrics
    ) async throws {
        func checkpointPages(of database: ServerDatabase) async throws -> Int? {
            try await database.writes.raw("PRAGMA wal_autocheckpoint").first()?.decode(
                column: "wal_autocheckpoint", as: Int.self)
        }
        #expect(try await checkpointPages(of: store.recordDatabase) == TokenServerStore.recordCheckpointPages)
        #expect(try await checkpointPages(of: store.database) == 1000, "the grants' file keeps SQLite's default")

        func fileSize() throws -> Int {
            try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0
        }
        /// The WAL's checkpoint sequence (its header's bytes 12 to 15): SQLite adds one each time
        /// it starts the WAL over. Read from the file, so that reading it copies nothing.
        func walSequence() throws -> UInt32 {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: file + "-wal"))
            defer { try? handle.close() }
            let header = try handle.read(upToCount: 16) ?? Data()
            return header.dropFirst(12).reduce(0) { $0 << 8 | UInt32($1) }
        }
        func checkpoints() -> Double {
            PrometheusText.value(of: "fleetauth_token_record_checkpoints_total", in: prometheus.exposition()) ?? 0
        }

        let empty = try fileSize()
        try await write(TokenRecorder.recordsPerCheckpoint - 1, by: recorder)
        #expect(try fileSize() == empty, "the records wait in the WAL")
        var written = TokenRecorder.recordsPerCheckpoint - 1
        var sequence = try walSequence()
        for cycle in 1...3 {
            let count = cycle == 1 ? 1 : TokenRecorder.recordsPerCheckpoint
            try await write(count, by: recorder)
            written += count
            // Writes go on, one at a time, while the WAL is copied, as under load.
            let deadline = ContinuousClock.now + .seconds(60)
            while checkpoints() < Double(cycle), ContinuousClock.now < deadline {
                try await write(1, by: recorder)
                written += 1
            }
            guard checkpoints() == Double(cycle) else {
                Issue.record("checkpoint \(cycle) did not come within a minute")
                return
            }
            #expect(try fileSize() > empty)
            // The next write starts the WAL over, though commits landed while it was copied.
            try await write(1, by: recorder)
            written += 1
            let next = try walSequence()
            #expect(next > sequence, "the WAL started over after checkpoint \(cycle)")
            sequence = next
        }
        #expect(try await store.records(matching: TokenRecordQuery(limit: 10_000)).count == written)
    }

    @Test("a recorder that finishes waits for a checkpoint under way, so that none runs on a closed file")
    func finishingWaitsForACheckpoint() async throws {
        try await TestDatabase.with(.sqlite) { database in
            let store = try await TokenServerStore.open(database.location, logger: TestDatabase.logger)
            let prometheus = PrometheusMetrics()
            let logs = LogRecorder()
            let recorder = Self.recorder(writingTo: store, countingIn: prometheus, logger: logs.logger)
            try await Self.write(TokenRecorder.recordsPerCheckpoint, by: recorder)
            // The last write started a checkpoint; it has copied the WAL once finish returns.
            await recorder.finish()
            #expect(
                PrometheusText.value(of: "fleetauth_token_record_checkpoints_total", in: prometheus.exposition()) == 1)
            await store.close()
            #expect(!logs.text.contains("WAL back into its file failed"), "\(logs.text)")
        }
    }

    /// A recorder with the production settings, on the system clock.
    private static func recorder(
        writingTo store: TokenServerStore, countingIn metrics: PrometheusMetrics = PrometheusMetrics(),
        logger: Logger = TestDatabase.logger
    ) -> TokenRecorder {
        TokenRecorder(
            settings: TokenRecorder.Settings(), store: store, metrics: TokenServerMetrics(metrics: metrics),
            logger: logger, now: { Date() })
    }

    /// Writes `count` records through `recorder` and waits until each is written.
    private static func write(_ count: Int, by recorder: TokenRecorder) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
                        recorder.issued(Self.record(for: "v-\(index % 10)", stampedBy: recorder)) {
                            done.resume(with: $0)
                        }
                    }
                }
            }
            try await group.waitForAll()
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
