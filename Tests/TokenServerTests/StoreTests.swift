import FleetAuthServerHTTP
import FleetAuthServerStorage
import Foundation
import SQLKit
import TestSupport
import Testing

@testable import TokenServer

/// The store suite, run against SQLite and PostgreSQL alike.
@Suite("Token server store")
struct StoreTests {
    private func withStore(_ backend: StoreBackend, _ body: (TokenServerStore) async throws -> Void) async throws {
        try await TestDatabase.with(backend) { database in
            let store = try await TokenServerStore.open(database.location, logger: TestDatabase.logger)
            do {
                try await body(store)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }

    /// Driver "ann", assigned to vehicle v-1, with session "s1" from 100 until 200.
    private func addDriverWithSession(to store: TokenServerStore) async throws {
        try await store.createAccount(account("ann", .driver), passwordHash: "h")
        try await store.assign(Resource(.vehicle, id: "v-1"), to: "ann", at: 1)
        try await store.createSession(tokenHash: "s1", username: "ann", createdAt: 100, expiresAt: 200)
    }

    private func account(_ name: String, _ role: AccountRole) -> Account {
        Account(username: name, role: role, createdAt: 1_800_000_000)
    }

    @Test("accounts: create, read, list, refuse a duplicate", arguments: StoreBackend.allCases)
    func accounts(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            try await store.createAccount(account("bob", .consumer), passwordHash: "hash-b")
            try await store.createAccount(account("ann", .driver), passwordHash: "hash-a")
            #expect(try await store.account(username: "ann") == account("ann", .driver))
            #expect(try await store.passwordHash(username: "ann") == "hash-a")
            #expect(try await store.account(username: "nobody") == nil)
            #expect(try await store.accounts().map(\.username) == ["ann", "bob"])
            await #expect(throws: StoreError.accountExists(username: "ann")) {
                try await store.createAccount(account("ann", .consumer), passwordHash: "other")
            }
            #expect(try await store.passwordHash(username: "ann") == "hash-a")
        }
    }

    @Test(
        "an account written with a role's former spelling is read with its one spelling",
        arguments: StoreBackend.allCases)
    func formerRoleSpelling(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            try await store.database.writes.raw(
                """
                INSERT INTO token_server_accounts (username, role, password_hash, created_at) VALUES ('dana', 'trusted-delivery-driver', 'h', 1)
                """
            ).run()
            #expect(try await store.account(username: "dana")?.role == .trustedDeliveryDriver)
            #expect(try await store.accounts().map(\.role.description) == ["delivery-trusted-driver"])
            // Its assignments and sessions read the role the same way.
            let van = Resource(.deliveryVehicle, id: "van")
            try await store.assign(van, to: "dana", at: 2)
            try await store.createSession(tokenHash: "s1", username: "dana", createdAt: 100, expiresAt: 200)
            #expect(
                try await store.sessionGrant(tokenHash: "s1", now: 150, resource: van)
                    == SessionGrant(username: "dana", role: .trustedDeliveryDriver, isAssigned: true))
        }
    }

    @Test("only one of many concurrent creations of a username wins", arguments: StoreBackend.allCases)
    func concurrentCreation(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for attempt in 0..<12 {
                    group.addTask {
                        do {
                            try await store.createAccount(account("racer", .driver), passwordHash: "hash-\(attempt)")
                            return true
                        } catch StoreError.accountExists {
                            return false
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(wins == 1)
            #expect(try await store.accounts().count == 1)
        }
    }

    @Test(
        "assignments need an existing account of the right role; a new one replaces the old",
        arguments: StoreBackend.allCases)
    func assignments(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            try await store.createAccount(account("ann", .driver), passwordHash: "h")
            try await store.createAccount(account("dan", .driver), passwordHash: "h")
            try await store.createAccount(account("cat", .consumer), passwordHash: "h")
            let vehicle = Resource(.vehicle, id: "v-1")
            try await store.assign(vehicle, to: "ann", at: 1)
            try await store.assign(Resource(.trip, id: "t-1"), to: "cat", at: 1)
            await #expect(throws: StoreError.wrongRole(username: "cat", role: .consumer, resource: vehicle)) {
                try await store.assign(vehicle, to: "cat", at: 2)
            }
            await #expect(throws: StoreError.noSuchAccount(username: "zed")) {
                try await store.assign(Resource(.vehicle, id: "v-2"), to: "zed", at: 2)
            }
            #expect(
                try await store.assignments(username: "ann") == [
                    Assignment(kind: .vehicle, resourceID: "v-1", username: "ann")
                ])
            try await store.assign(vehicle, to: "dan", at: 3)
            #expect(try await store.assignments(username: "ann").isEmpty)
            #expect(try await store.assignments().map(\.username) == ["cat", "dan"])
            #expect(try await store.unassign(vehicle))
            #expect(try await store.unassign(vehicle) == false)
            #expect(try await store.assignments().map(\.resourceID) == ["t-1"])
        }
    }

    @Test("a session grant says who and whether assigned, until it expires or ends", arguments: StoreBackend.allCases)
    func sessions(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            try await addDriverWithSession(to: store)
            let mine = try await store.sessionGrant(tokenHash: "s1", now: 150, resource: Resource(.vehicle, id: "v-1"))
            #expect(mine == SessionGrant(username: "ann", role: .driver, isAssigned: true))
            #expect(
                try await store.sessionGrant(tokenHash: "s1", now: 150, resource: Resource(.vehicle, id: "v-2"))?
                    .isAssigned == false)
            // Same id, other kind: not assigned.
            #expect(
                try await store.sessionGrant(tokenHash: "s1", now: 150, resource: Resource(.trip, id: "v-1"))?
                    .isAssigned == false)
            #expect(try await store.sessionGrant(tokenHash: "s1", now: 150, resource: nil)?.isAssigned == false)
            #expect(try await store.sessionGrant(tokenHash: "s1", now: 200, resource: nil) == nil)
            #expect(try await store.sessionGrant(tokenHash: "other", now: 150, resource: nil) == nil)
            try await store.createSession(tokenHash: "s2", username: "ann", createdAt: 100, expiresAt: 400)
            #expect(try await store.purgeExpiredSessions(now: 300) == 1)
            #expect(try await store.endSession(tokenHash: "s2"))
            #expect(try await store.endSession(tokenHash: "s2") == false)
            #expect(try await store.sessionCount(username: "ann") == 0)
        }
    }

    /// The token route reads the grant on the event loop when it can; it must see what the
    /// pooled read sees, revocations included.
    @Test(
        "a session grant read without waiting agrees with the pooled read on SQLite; on PostgreSQL it always waits",
        arguments: StoreBackend.allCases)
    func sessionGrantWithoutWaiting(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            try await addDriverWithSession(to: store)
            func agree(_ hash: String, at now: Int64, _ resource: Resource?) async throws -> SessionGrant? {
                let pooled = try await store.sessionGrant(tokenHash: hash, now: now, resource: resource)
                switch backend {
                case .sqlite:
                    #expect(
                        try store.sessionGrantWithoutWaiting(tokenHash: hash, now: now, resource: resource) == pooled)
                case .postgres:
                    #expect(throws: ServerDatabase.UnavailableWithoutWaiting.self) {
                        try store.sessionGrantWithoutWaiting(tokenHash: hash, now: now, resource: resource)
                    }
                }
                return pooled
            }
            #expect(try await agree("s1", at: 150, Resource(.vehicle, id: "v-1"))?.isAssigned == true)
            #expect(try await agree("s1", at: 150, Resource(.vehicle, id: "v-2"))?.isAssigned == false)
            #expect(try await agree("s1", at: 200, nil) == nil)
            #expect(
                try await agree("s1", at: 200, Resource(.vehicle, id: "v-1")) == nil,
                "a repeated read still sees the session expire")
            #expect(try await agree("other", at: 150, nil) == nil)
            #expect(try await agree("s1", at: 150, Resource(.vehicle, id: "v-1"))?.isAssigned == true)
            #expect(try await store.unassign(Resource(.vehicle, id: "v-1")))
            #expect(try await agree("s1", at: 150, Resource(.vehicle, id: "v-1"))?.isAssigned == false)
        }
    }

    @Test("deleting an account deletes its sessions and assignments at once", arguments: StoreBackend.allCases)
    func deletion(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            try await store.createAccount(account("ann", .driver), passwordHash: "h")
            try await store.assign(Resource(.vehicle, id: "v-1"), to: "ann", at: 1)
            try await store.createSession(tokenHash: "s1", username: "ann", createdAt: 1, expiresAt: 10_000)
            #expect(try await store.deleteAccount(username: "ann"))
            #expect(try await store.deleteAccount(username: "ann") == false)
            #expect(try await store.sessionGrant(tokenHash: "s1", now: 2, resource: nil) == nil)
            #expect(try await store.assignments().isEmpty)
            #expect(try await store.sessionCount(username: "ann") == 0)
            // The username can be used again, with nothing inherited.
            try await store.createAccount(account("ann", .driver), passwordHash: "h2")
            #expect(try await store.sessionGrant(tokenHash: "s1", now: 2, resource: nil) == nil)
        }
    }

    @Test("the admin key's hash: the first one set stays", arguments: StoreBackend.allCases)
    func adminKey(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            #expect(try await store.adminKeyHash() == nil)
            let set = try await store.setAdminKeyHashIfAbsent("first", at: 1)
            #expect(set == "first")
            #expect(try await store.setAdminKeyHashIfAbsent("second", at: 2) == "first")
            #expect(try await store.adminKeyHash() == "first")
        }
    }

    @Test("rows survive closing and reopening; reopening migrates nothing twice", arguments: StoreBackend.allCases)
    func reopen(backend: StoreBackend) async throws {
        try await TestDatabase.with(backend) { database in
            let first = try await TokenServerStore.open(database.location, logger: TestDatabase.logger)
            try await first.createAccount(account("ann", .driver), passwordHash: "h")
            try await first.assign(Resource(.vehicle, id: "v-1"), to: "ann", at: 1)
            try await first.createSession(tokenHash: "s1", username: "ann", createdAt: 1, expiresAt: 10_000)
            await first.close()
            let second = try await TokenServerStore.open(database.location, logger: TestDatabase.logger)
            #expect(
                try await second.sessionGrant(tokenHash: "s1", now: 2, resource: Resource(.vehicle, id: "v-1"))?
                    .isAssigned == true)
            await second.close()
        }
    }

    @Test(
        "the record: each kind of resource lands in its own column and is found by its filter, and by no other",
        arguments: StoreBackend.allCases)
    func recordOfEveryKindOfResource(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let records = ResourceKind.allCases.enumerated().map { offset, kind in
                TokenRecord(
                    id: "0000000000000\(offset)", recordedAt: 1_700_000_000, outcome: .issued, reason: nil,
                    account: "acc-\(offset)", role: "driver", kind: "driver", resource: Resource(kind, id: "same-id"),
                    keyID: "kid", issuedAt: 1_700_000_000, expiresAt: 1_700_003_600, sessionID: "s-\(offset)",
                    clientAddress: "127.0.0.1")
            }
            try await store.append(records)
            for (offset, kind) in ResourceKind.allCases.enumerated() {
                let found = try await store.records(matching: TokenRecordQuery(resource: Resource(kind, id: "same-id")))
                #expect(found.map(\.account) == ["acc-\(offset)"], "\(kind)")
                #expect(found.first?.resource == Resource(kind, id: "same-id"))
            }
        }
    }

    @Test(
        "the record: since takes the records of its second and after, by their ids' time too, also for an account",
        arguments: StoreBackend.allCases)
    func recordSinceBoundsTheIDs(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let second: Int64 = 1_700_000_000
            let records = Self.records(aroundSecond: second, of: ["ann", "bob"])
            try await store.append(records)
            let sinceSecond = try await store.records(matching: TokenRecordQuery(since: second))
            #expect(sinceSecond.map(\.resource?.id) == ["v-2", "v-2", "v-1", "v-1"])
            let annSince = try await store.records(matching: TokenRecordQuery(account: "ann", since: second))
            #expect(annSince.map(\.resource?.id) == ["v-2", "v-1"])
            #expect(annSince.allSatisfy { $0.account == "ann" })
            let ann = try await store.records(matching: TokenRecordQuery(account: "ann"))
            #expect(ann.map(\.resource?.id) == ["v-2", "v-1", "v-0"])
            #expect(try await store.records(matching: TokenRecordQuery(account: "cat")).isEmpty)
        }
    }

    /// A driver token's record for each of `accounts` made in the last millisecond before
    /// `second`, at its first, and a second later: for vehicles `v-0`, `v-1` and `v-2`, in that
    /// order, with ids as the recorder makes them.
    private static func records(aroundSecond second: Int64, of accounts: [String]) -> [TokenRecord] {
        let ids = TokenRecordIDs()
        return [Double(second) - 0.001, Double(second), Double(second) + 1].enumerated().flatMap { offset, time in
            accounts.map { account in
                TokenRecord(
                    id: ids.next(at: Date(timeIntervalSince1970: time)), recordedAt: Int64(time.rounded(.down)),
                    outcome: .issued, reason: nil, account: account, role: "driver", kind: "driver",
                    resource: Resource(.vehicle, id: "v-\(offset)"), keyID: "kid", issuedAt: second,
                    expiresAt: second + 3600, sessionID: nil, clientAddress: nil)
            }
        }
    }

    @Test("a time's lower bound of ids: 14 digits, in the order of the times, below every id made at or after it")
    func lowerBoundsOfIDs() {
        let times: [Int64] = [-5, 0, 1, 1_700_000_000, 99_999_999_999, 100_000_000_000, Int64.max]
        let bounds = times.map(TokenRecordIDs.lowerBound(since:))
        #expect(bounds.allSatisfy { $0.utf8.count == 14 && $0.allSatisfy(\.isNumber) })
        #expect(bounds == bounds.sorted())
        #expect(bounds.first == "00000000000000" && bounds.last == "99999999999000")
        let ids = TokenRecordIDs()
        for time in [1_700_000_000.0, 1_700_000_000.999, 4_102_444_800.5] {
            let id = ids.next(at: Date(timeIntervalSince1970: time))
            #expect(TokenRecordIDs.lowerBound(since: Int64(time.rounded(.down))) <= id)
            #expect(TokenRecordIDs.lowerBound(since: Int64(time.rounded(.down)) + 1) > id)
        }
    }

    /// The record's indexes after the last migration: one for each kind of resource.
    static let recordIndexes = ["delivery_vehicle_id", "tracking_id", "trip_id", "vehicle_id"].map {
        "token_server_token_records_by_\($0)"
    }

    /// The names of the indexes on the record's table in `store`, sorted, without the primary key's.
    static func recordIndexNames(of store: TokenServerStore) async throws -> [String] {
        let database = store.recordDatabase
        let query: SQLQueryString =
            database.kind == .postgres
            ? "SELECT indexname AS name FROM pg_indexes WHERE tablename = 'token_server_token_records' AND indexname NOT LIKE '%_pkey'"
            : "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'token_server_token_records' AND name NOT LIKE 'sqlite_autoindex%'"
        return try await database.sql.raw(query).all().map { try $0.decode(column: "name", as: String.self) }.sorted()
    }

    @Test(
        "the record keeps an index for each kind of resource and no other; pruning takes the records before a second's edge",
        arguments: StoreBackend.allCases)
    func recordIndexesAndPruning(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            #expect(try await Self.recordIndexNames(of: store) == Self.recordIndexes)
            let second: Int64 = 1_700_000_000
            let records = Self.records(aroundSecond: second, of: ["ann"])
            try await store.append(records)
            #expect(try await store.pruneRecords(before: second) == 1)
            #expect(try await store.records(matching: TokenRecordQuery()).map(\.recordedAt) == [second + 1, second])
            #expect(try await store.pruneRecords(before: second) == 0)
        }
    }
}
