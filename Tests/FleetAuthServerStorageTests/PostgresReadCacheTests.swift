import FleetAuthServerStorage
import Foundation
import Logging
import SQLKit
import TestSupport
import Testing

/// `ServerDatabase.first` on PostgreSQL answers from memory while nothing is heard to change:
/// a change a trigger notifies, or one this process writes, is seen at once (or as soon as the
/// notification comes); a change nobody signals is not, which is what shows memory serves.
@Suite("PostgreSQL reads from memory")
struct PostgresReadCacheTests {
    static let createTable: [SQLQueryString] = [
        "CREATE TABLE grants (id INTEGER PRIMARY KEY, holder TEXT NOT NULL)",
        "CREATE TABLE quiet (id INTEGER PRIMARY KEY, holder TEXT NOT NULL)",
        """
        CREATE FUNCTION grants_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_notify('\(unsafeRaw: PostgresChangeSignal.channel)', TG_TABLE_NAME); RETURN NULL; END $$
        """,
        "CREATE TRIGGER grants_changed AFTER INSERT OR UPDATE OR DELETE ON grants FOR EACH STATEMENT EXECUTE FUNCTION grants_changed()",
        "INSERT INTO grants VALUES (1, 'ann')",
        "INSERT INTO quiet VALUES (1, 'ann')",
    ]

    static func holder(in table: String, _ database: ServerDatabase) async throws -> String? {
        try await database.first("SELECT holder FROM \(unsafeRaw: table) WHERE id = \(bind: 1)")?.decode(
            column: "holder", as: String.self)
    }

    @Test func answersComeFromMemoryUntilAChangeIsHeard() async throws {
        try await TestDatabase.with(.postgres) { test in
            let logger = Logger(label: "test")
            let replica = try await ServerDatabase.open(test.location, logger: logger)
            let other = try await ServerDatabase.open(test.location, logger: logger)
            do {
                for statement in Self.createTable { try await other.writes.raw(statement).run() }
                // The first read starts listening; once the replica listens, a read is remembered.
                #expect(!replica.hearsChanges)
                #expect(try await Self.holder(in: "quiet", replica) == "ann")
                try await waitUntil { replica.hearsChanges }
                #expect(try await Self.holder(in: "quiet", replica) == "ann")
                #expect(try await Self.holder(in: "grants", replica) == "ann")

                // A change no trigger signals is not seen: the answer comes from memory. On a busy
                // machine the listening connection may miss its heartbeat and be replaced, which
                // drops what memory holds, as it must; so the replica remembers a value of its own
                // write, another process changes it quietly, and the replica is asked until its
                // memory serves, or memory is seen dropped; up to twenty times (beside the whole
                // suite on two cores, heartbeats are often late for seconds at a time).
                var quietValue = "ann", servedFromMemory = false
                for attempt in 1...20 where !servedFromMemory {
                    let remembered = "held-\(attempt)"
                    quietValue = "changed-\(attempt)"
                    try await replica.writes.raw("UPDATE quiet SET holder = \(bind: remembered) WHERE id = 1").run()
                    try await waitUntil {
                        guard replica.hearsChanges else { return false }
                        return try await Self.holder(in: "quiet", replica) == remembered
                    }
                    try await other.writes.raw("UPDATE quiet SET holder = \(bind: quietValue) WHERE id = 1").run()
                    let deadline = ContinuousClock.now + .seconds(3)
                    while ContinuousClock.now < deadline, !servedFromMemory {
                        // Memory serves under a lease its heartbeat renews; while it has lapsed, a
                        // read goes to the database (and is not remembered).
                        let held = replica.hearsChanges, answer = try await Self.holder(in: "quiet", replica)
                        if held, answer == remembered { servedFromMemory = true }
                        if held, answer == quietValue { break }
                    }
                }
                #expect(servedFromMemory, "a change no trigger signals was seen at once, twenty times")
                // A signalled change, by another process, is seen once its notification comes
                // (and drops what was remembered of the quiet table too). A read while the lease
                // has lapsed goes to the database and sees it before then, and a heartbeat asked
                // before the change may still renew the lease for up to its 100 ms: so wait out
                // the lease, then for a read under a lease renewed since, which has heard it.
                try await other.writes.raw("UPDATE grants SET holder = 'bob' WHERE id = 1").run()
                try await Task.sleep(for: .milliseconds(200))
                // (Beside the whole suite the lease may lapse for seconds at a time, as above.)
                try await waitUntil(timeout: .seconds(60)) {
                    guard replica.hearsChanges else { return false }
                    return try await Self.holder(in: "grants", replica) == "bob"
                }
                #expect(try await Self.holder(in: "quiet", replica) == quietValue)
                // This process's own write is seen at once, signalled or not.
                try await replica.writes.raw("UPDATE quiet SET holder = 'cy' WHERE id = 1").run()
                #expect(try await Self.holder(in: "quiet", replica) == "cy")
                try await replica.transaction { try await $0.raw("UPDATE quiet SET holder = 'di' WHERE id = 1").run() }
                #expect(try await Self.holder(in: "quiet", replica) == "di")
            } catch {
                await replica.shutdown()
                await other.shutdown()
                throw error
            }
            await replica.shutdown()
            await other.shutdown()
        }
    }

    /// How a test cuts a replica's listening connection off.
    enum Cut: String, CaseIterable, Sendable {
        /// Its backend stopped (`SIGSTOP`): silent, as across a partition, the connection open.
        case silenced
        /// Its backend ended (`pg_terminate_backend`): the connection closed.
        case terminated
    }

    @Test(
        "A replica whose listening connection is cut off serves nothing remembered once the lease has run out",
        arguments: Cut.allCases)
    func cutOffListener(_ cut: Cut) async throws {
        try await TestDatabase.with(.postgres) { test in
            let logger = Logger(label: "test")
            let replica = try await ServerDatabase.open(test.location, logger: logger)
            // Writes only, so it never listens: the only listening backend is the replica's.
            let other = try await ServerDatabase.open(test.location, logger: logger)
            var stopped: pid_t?
            do {
                for statement in Self.createTable { try await other.writes.raw(statement).run() }
                #expect(try await Self.holder(in: "grants", replica) == "ann")
                try await waitUntil { replica.hearsChanges }
                #expect(try await Self.holder(in: "grants", replica) == "ann")

                let listener = try await Self.listeningBackend(seenBy: other)
                switch cut {
                case .silenced:
                    // The process must be PostgreSQL's backend on this machine, not a process that
                    // happens to have its number (a PostgreSQL elsewhere).
                    let command = (try? String(contentsOfFile: "/proc/\(listener)/cmdline", encoding: .utf8)) ?? ""
                    try #require(
                        command.hasPrefix("postgres"),
                        "backend \(listener) is not a process of this machine: \(command)")
                    try #require(
                        kill(listener, SIGSTOP) == 0,
                        "cannot stop PostgreSQL's backend \(listener): run as root or as PostgreSQL's user")
                    stopped = listener
                case .terminated:
                    try await other.writes.raw("SELECT pg_terminate_backend(\(bind: listener))").run()
                }
                // The change's notification never reaches the replica. A read that starts more than
                // a lease (100 ms) after the change cannot be answered from memory, however busy
                // the machine.
                try await other.writes.raw("UPDATE grants SET holder = 'bob' WHERE id = 1").run()
                try await Task.sleep(for: .milliseconds(110))
                // (A terminated connection is replaced at once, so the replica may hear again.)
                #expect(cut == .terminated || !replica.hearsChanges)
                #expect(try await Self.holder(in: "grants", replica) == "bob")

                // Once the backend answers again, or another connection listens, memory serves
                // again, starting afresh.
                stopped.map { _ = kill($0, SIGCONT) }
                stopped = nil
                try await waitUntil(timeout: .seconds(10)) { replica.hearsChanges }
                #expect(try await Self.holder(in: "grants", replica) == "bob")
            } catch {
                stopped.map { _ = kill($0, SIGCONT) }
                await replica.shutdown()
                await other.shutdown()
                throw error
            }
            await replica.shutdown()
            await other.shutdown()
        }
    }

    /// The process id of the backend that listens for changes to the database `observer` is
    /// connected to (the one asked the change feed's heartbeat), once there is one.
    static func listeningBackend(seenBy observer: ServerDatabase) async throws -> pid_t {
        var found: pid_t?
        try await waitUntil("a backend answers the change feed's heartbeat", timeout: .seconds(10)) {
            let rows = try await observer.writes.raw(
                """
                SELECT pid FROM pg_stat_activity
                WHERE datname = current_database() AND query = 'SELECT ''fleetauth change feed heartbeat'''
                """
            ).all()
            found = try rows.first?.decode(column: "pid", as: Int32.self)
            return found != nil
        }
        return try #require(found)
    }
}
