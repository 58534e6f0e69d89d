import CommandSupport
import FleetAuthLocking
import Foundation
import Logging
import NIOPosix
import SQLKit
import Testing

@testable import FleetAuthServerStorage

@Suite("SQLite reads on the calling thread")
struct SQLiteDirectReaderTests {
    private func withDatabase(_ body: (ServerDatabase, String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("direct-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let location = DatabaseLocation(dataDirectory: folder, fileName: "test.sqlite", databaseURL: nil)
        let database = try await ServerDatabase.open(location, logger: Logger(label: "test"))
        do {
            try await database.executeAtomically(
                SQLRaw("CREATE TABLE grants (token TEXT PRIMARY KEY, username TEXT NOT NULL, expires INTEGER NOT NULL)")
            )
            try await body(database, folder + "/test.sqlite")
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
    }

    private func username(_ database: ServerDatabase, token: String, now: Int64 = 0) async throws -> String? {
        try await database.first("SELECT username FROM grants WHERE token = \(bind: token) AND expires > \(bind: now)")?
            .decode(column: "username", as: String.self)
    }

    @Test("each read sees every commit made before it: a new row, a change, a deletion")
    func seesEveryCommit() async throws {
        try await withDatabase { database, _ in
            #expect(try await username(database, token: "t1") == nil)
            try await database.executeAtomically(SQLRaw("INSERT INTO grants VALUES ('t1', 'ann', 100)"))
            #expect(try await username(database, token: "t1") == "ann")
            #expect(try await username(database, token: "t1", now: 100) == nil, "the bound integer is compared")
            try await database.executeAtomically(SQLRaw("UPDATE grants SET username = 'bob' WHERE token = 't1'"))
            #expect(try await username(database, token: "t1") == "bob")
            try await database.executeAtomically(SQLRaw("DELETE FROM grants WHERE token = 't1'"))
            #expect(try await username(database, token: "t1") == nil)
        }
    }

    @Test(
        "a repeated read is answered from memory until a commit, made in this process or another, and then read again")
    func repeatedReadUntilCommit() async throws {
        try await withDatabase { database, path in
            try await database.executeAtomically(SQLRaw("INSERT INTO grants VALUES ('t1', 'ann', 100)"))
            let reader = SQLiteDirectReader(path: path)
            defer { reader.close() }
            func name(_ token: String = "t1") throws -> SQLiteDirectReader.Value? {
                try reader.firstRow("SELECT username FROM grants WHERE token = ?", binds: [.text(token)])?["username"]
            }
            #expect(try name() == .text("ann"))
            #expect(try name() == .text("ann"))
            let read = reader.statementsRun
            #expect(try name() == .text("ann"))
            #expect(reader.statementsRun == read, "answered from memory")
            #expect(try name("t2") == nil)
            #expect(try name("t2") == nil)
            #expect(reader.statementsRun == read + 2, "another bind is another read; no row is not kept")

            try await database.executeAtomically(SQLRaw("UPDATE grants SET username = 'bob'"))
            #expect(try name() == .text("bob"))
            #expect(reader.statementsRun == read + 3)

            try await runPython(
                """
                import sqlite3, sys
                c = sqlite3.connect(sys.argv[1])
                c.execute("UPDATE grants SET username = 'cy'")
                c.execute("INSERT INTO grants VALUES ('t2', 'dee', 1)")
                c.commit()
                """, path)
            #expect(try name() == .text("cy"))
            #expect(try name("t2") == .text("dee"))

            // Checkpoints and VACUUM by another process, each followed by a commit.
            for (round, maintenance) in ["PRAGMA wal_checkpoint(TRUNCATE)", "PRAGMA wal_checkpoint(RESTART)", "VACUUM"]
                .enumerated()
            {
                #expect(try name() == .text("cy"))
                try await runPython(
                    """
                    import sqlite3, sys
                    c = sqlite3.connect(sys.argv[1], isolation_level=None)
                    c.execute("\(maintenance)")
                    c.execute("UPDATE grants SET username = username || '+' WHERE token = 't2'")
                    """, path)
                #expect(try name() == .text("cy"), "after \(maintenance)")
                #expect(
                    try name("t2") == .text("dee" + String(repeating: "+", count: round + 1)), "after \(maintenance)")
            }

            for round in 0..<50 {
                try await database.executeAtomically(
                    SQLRaw("UPDATE grants SET username = 'u\(round)' WHERE token = 't1'"))
                #expect(try name() == .text("u\(round)"))
            }
            try await database.executeAtomically(SQLRaw("DELETE FROM grants"))
            #expect(try name() == nil)
        }
    }

    @Test("readers on several connections each see a commit by another process as soon as it returns")
    func severalConnectionsSeeEachCommit() async throws {
        try await withDatabase { database, path in
            try await database.executeAtomically(SQLRaw("INSERT INTO grants VALUES ('t1', 'u0', 0)"))
            let reader = SQLiteDirectReader(path: path)
            defer { reader.close() }
            // Another process commits the value it is given and says so once the commit returned.
            try await PythonPeer.with(
                """
                import sqlite3
                c = sqlite3.connect(sys.argv[1], isolation_level=None)
                for value in steps():
                    c.execute("UPDATE grants SET expires = ? WHERE token = 't1'", (int(value),))
                """, path
            ) { writer in
                for value in 1...60 {
                    try await writer.say("\(value)")
                    // Four reads at once, each on a connection of its own, each read twice (the
                    // second may come from memory).
                    let seen = try await withThrowingTaskGroup(of: [SQLiteDirectReader.Value?].self) { group in
                        for _ in 0..<4 {
                            group.addTask {
                                try (0..<2).map { _ in
                                    try reader.firstRow(
                                        "SELECT expires FROM grants WHERE token = ?", binds: [.text("t1")])?["expires"]
                                }
                            }
                        }
                        return try await group.reduce(into: []) { $0 += $1 }
                    }
                    #expect(seen.allSatisfy { $0 == .integer(Int64(value)) }, "after commit \(value): \(seen)")
                }
            }
        }
    }

    @Test("a file not in WAL mode is read from the file every time, and gets no WAL index")
    func rollbackJournalIsNotKept() async throws {
        try await withDatabase { _, path in
            let rollbackPath = path + ".rollback"
            try await runPython(
                """
                import sqlite3, sys
                c = sqlite3.connect(sys.argv[1])
                c.execute("CREATE TABLE t (x INTEGER)")
                c.execute("INSERT INTO t VALUES (7)")
                c.commit()
                """, rollbackPath)
            let reader = SQLiteDirectReader(path: rollbackPath)
            defer { reader.close() }
            func x() throws -> SQLiteDirectReader.Value? { try reader.firstRow("SELECT x FROM t", binds: [])?["x"] }
            #expect(try x() == .integer(7))
            let read = reader.statementsRun
            #expect(try x() == .integer(7))
            #expect(try x() == .integer(7))
            #expect(reader.statementsRun == read + 2, "each read ran its statement")
            #expect(!FileManager.default.fileExists(atPath: rollbackPath + "-shm"))
        }
    }

    /// A Python script run with `argument` as another process using the file, through
    /// ``CommandSupport/ChildProcess`` (Foundation's `Process.run()` crashes now and then on
    /// Linux, swift-corelibs-foundation #5472). The script's `steps()` yields each word the
    /// test says (written to a file, since the child's input is written once), and prints
    /// `done N` once the script has handled the Nth.
    private final class PythonPeer: Sendable {
        private static let steps = """
            import sys, time
            def steps():
                n = 0
                while True:
                    try:
                        with open(sys.argv[2]) as f: said = f.read().split()
                    except FileNotFoundError:
                        said = []
                    if len(said) == 2 and int(said[0]) > n:
                        n = int(said[0])
                        if said[1] == "end": return
                        yield said[1]
                        print("done", n, flush=True)
                    else:
                        time.sleep(0.001)

            """
        private let process: ChildProcess
        private let stepFile: String
        private let said = Locked(0)

        private init(_ script: String, _ argument: String) throws {
            stepFile = argument + ".steps"
            process = try ChildProcess(["python3", "-c", Self.steps + script, argument, stepFile])
        }

        /// Runs `body` with the script started, then tells it to end and waits for it, also
        /// when `body` throws.
        static func with(
            _ script: String, _ argument: String, _ body: (PythonPeer) async throws -> Void
        ) async throws {
            let peer = try PythonPeer(script, argument)
            do {
                try await body(peer)
            } catch {
                await peer.finish()
                throw error
            }
            await peer.finish()
        }

        /// Says `word` to the script and waits until it has handled it.
        func say(_ word: String) async throws {
            let step = said.withLock { count in
                count += 1
                return count
            }
            try Data("\(step) \(word)\n".utf8).write(to: URL(fileURLWithPath: stepFile), options: .atomic)
            _ = try await process.output(containing: "done \(step)\n", within: .seconds(30))
        }

        /// Waits until the script has printed `line`.
        func waitFor(_ line: String) async throws {
            _ = try await process.output(containing: line + "\n", within: .seconds(30))
        }

        /// Tells the script to end and waits for it to exit.
        private func finish() async {
            let step = said.withLock { $0 + 1 }
            try? Data("\(step) end\n".utf8).write(to: URL(fileURLWithPath: stepFile), options: .atomic)
            _ = try? await process.exit(within: .seconds(10))
        }
    }

    /// Runs a Python script with `argument`, as another process writing to the file would
    /// (through ``CommandSupport/ChildProcess``: Foundation's `Process.run()` crashes now and
    /// then on Linux, swift-corelibs-foundation #5472).
    private func runPython(_ script: String, _ argument: String) async throws {
        let python = try await ChildProcess.run(["python3", "-c", script, argument])
        try #require(python.exited && python.status == 0, "python3 with sqlite3 is needed: \(python.output)")
    }

    @Test("integers decode as integers and booleans, text as strings; a mismatch is an error, not a crash")
    func decodesColumns() async throws {
        try await withDatabase { database, _ in
            try await database.executeAtomically(SQLRaw("INSERT INTO grants VALUES ('t1', 'ann', 100)"))
            let row = try #require(
                try await database.first("SELECT username, expires, expires > 50 AS live, NULL AS absent FROM grants"))
            #expect(try row.decode(column: "expires", as: Int.self) == 100)
            #expect(try row.decode(column: "expires", as: Int64.self) == 100)
            #expect(try row.decode(column: "live", as: Bool.self))
            #expect(try row.decodeNil(column: "absent"))
            #expect(try row.decode(column: "absent", as: String?.self) == nil)
            #expect(try row.decode(column: "expires", as: Int64?.self) == 100)
            #expect(try row.decode(column: "username", as: String?.self) == "ann")
            #expect(throws: DecodingError.self) { try row.decode(column: "username", as: Int?.self) }
            #expect(throws: DecodingError.self) { try row.decode(column: "username", as: Int.self) }
            #expect(throws: DecodingError.self) { try row.decode(column: "missing", as: String.self) }
        }
    }

    @Test(
        "a read that would wait for another process's lock fails at once; ServerDatabase reads other binds through the pool"
    )
    func lockedFileFailsAtOnce() async throws {
        try await withDatabase { database, path in
            // Another process holds the write lock of a file in rollback-journal mode, where
            // readers must wait for it.
            let lockedPath = path + ".locked"
            try await PythonPeer.with(
                """
                import sqlite3
                c = sqlite3.connect(sys.argv[1], isolation_level=None)
                c.execute("CREATE TABLE t (x INTEGER)")
                c.execute("BEGIN EXCLUSIVE")
                print("locked", flush=True)
                for _ in steps(): pass
                """, lockedPath
            ) { holder in
                try await holder.waitFor("locked")
                let reader = SQLiteDirectReader(path: lockedPath)
                defer { reader.close() }
                let started = ContinuousClock.now
                #expect(throws: SQLiteDirectReader.Unavailable.self) {
                    try reader.firstRow("SELECT x FROM t", binds: [])
                }
                // Well under the pool's 5 s busy timeout, which a read that waited would sit out.
                #expect(ContinuousClock.now - started < .seconds(4), "it did not wait for the lock")
            }

            // A bind the reader does not take (a Double) is read through the pool, same answer.
            try await database.executeAtomically(SQLRaw("INSERT INTO grants VALUES ('t1', 'ann', 100)"))
            let pooled = try await database.first("SELECT username FROM grants WHERE expires > \(bind: 99.5)")
            #expect(try pooled?.decode(column: "username", as: String.self) == "ann")
        }
    }

    @Test("after close, reads fail here and ServerDatabase refuses them through the closed pool")
    func closedReaderRefuses() async throws {
        try await withDatabase { _, path in
            let reader = SQLiteDirectReader(path: path)
            let rows = try reader.firstRow("SELECT token FROM grants", binds: [])
            #expect(rows == nil)
            reader.close()
            #expect(throws: SQLiteDirectReader.Unavailable.self) {
                try reader.firstRow("SELECT token FROM grants", binds: [])
            }
        }
    }
}
