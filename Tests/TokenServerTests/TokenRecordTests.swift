import CommandSupport
import FleetAuthServerStorage
import FleetTokens
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

@testable import TokenServer

/// The record of token requests: every token handed out, written before it is; every refusal
/// with its reason; never a secret; the API's filters and pages; what happens when the store
/// refuses writes; retention.
@Suite("The record of tokens")
struct TokenRecordTests {
    @Test(
        "a token's record is written before the token is handed out; refusals are recorded with their reason; no secret in either",
        arguments: StoreBackend.allCases)
    func recordsIssuedAndRefused(backend: StoreBackend) async throws {
        let clock = TestClock()
        try await TestServer.serve(backend, options: TestServer.options(clock: clock)) { client, server in
            try await client.createAccount("ann", role: "driver")
            try await client.assign("vehicles/v-1/driver", to: "ann")
            let session = try await client.logIn("ann")
            let answer = try await client.token("driver/v-1", session: session)
            #expect(answer.status == .ok)
            let token = try #require(try answer.json()["token"] as? String)
            let store = server.server.store

            // Read at once, beside the API: the answer came after the record was written.
            let issued = try await store.records(matching: TokenRecordQuery(resource: Resource(.vehicle, id: "v-1")))
            #expect(issued.count == 1)
            let record = try #require(issued.first)
            #expect(
                record.outcome == .issued && record.reason == nil && record.account == "ann" && record.role == "driver"
                    && record.kind == "driver")
            #expect(record.keyID == TestKeys.driver.privateKeyID)
            #expect(record.issuedAt == (try answer.json()["issuedAt"] as? Int).map(Int64.init))
            #expect(record.expiresAt == (try answer.json()["expiresAt"] as? Int).map(Int64.init))
            #expect(record.sessionID == TokenRecord.sessionID(ofHash: SecretToken.hash(session)))
            #expect(record.clientAddress == "127.0.0.1")

            try await client.token("driver/v-2", session: session).expectRefusal(.forbidden, "PERMISSION_DENIED")
            try await client.token("consumer/t-1", session: nil).expectRefusal(.unauthorized, "UNAUTHENTICATED")
            try await waitUntil("both refusals recorded") {
                try await store.records(matching: TokenRecordQuery(outcome: .refused)).count == 2
            }
            let refused = try await store.records(matching: TokenRecordQuery(outcome: .refused))
            #expect(
                refused.map { "\($0.account) \($0.kind) \($0.reason ?? "") \($0.resource?.description ?? "")" } == [
                    "- consumer unauthenticated trip \"t-1\"", "ann driver not_assigned vehicle \"v-2\"",
                ])

            // What no rule lets through still cannot stop the record: an id PostgreSQL cannot
            // store (a NUL) is left out of its record, and a consumer asking for a driver's token
            // is recorded as asking for that.
            try await client.send(.get, "/v1/tokens/driver/a%00b").expectRefusal(.unauthorized, "UNAUTHENTICATED")
            try await client.createAccount("cai", role: "consumer")
            try await client.token("driver/v-1", session: try await client.logIn("cai")).expectRefusal(
                .forbidden, "PERMISSION_DENIED")
            try await waitUntil { try await store.records(matching: TokenRecordQuery(outcome: .refused)).count == 4 }
            let odd = try await store.records(matching: TokenRecordQuery(outcome: .refused, limit: 2))
            #expect(
                odd.map { "\($0.account) \($0.kind) \($0.reason ?? "") \($0.resource?.description ?? "-")" } == [
                    "cai driver wrong_role vehicle \"v-1\"", "- driver unauthenticated -",
                ])
            #expect(try await client.token("driver/v-1", session: session).status == .ok)
            #expect(
                try await store.records(matching: TokenRecordQuery(outcome: .issued)).count == 2, "the record goes on")

            let listed = try await client.admin(.get, "/v1/admin/issued-tokens")
            #expect(listed.status == .ok)
            let text = String(buffer: listed.body)
            for secret in [token, session, try server.adminKey, SecretToken.hash(session)] {
                #expect(!text.contains(secret), "no secret in the record")
            }
            #expect(try listed.json()["issuedTokens"].map { ($0 as? [Any])?.count } == 6)
        }
    }

    @Test(
        "the API: who holds a valid token for a vehicle, refusals only, an account's, since, pages newest first, bad parameters named"
    )
    func api() async throws {
        let clock = TestClock()
        try await TestServer.serve(.sqlite, options: TestServer.options(clock: clock)) { client, _ in
            try await client.createAccount("ann", role: "driver")
            try await client.assign("vehicles/v-1/driver", to: "ann")
            try await client.createAccount("cai", role: "consumer")
            try await client.assign("trips/t-1/consumer", to: "cai")
            let ann = try await client.logIn("ann"), cai = try await client.logIn("cai")
            #expect(try await client.token("driver/v-1", session: ann).status == .ok)
            for _ in 0..<5 { #expect(try await client.token("consumer/t-1", session: cai).status == .ok) }
            try await client.token("consumer/t-2", session: cai).expectRefusal(.forbidden, "PERMISSION_DENIED")

            func page(_ query: String) async throws -> (entries: [[String: Any]], next: String?) {
                let response = try await client.admin(.get, "/v1/admin/issued-tokens?" + query)
                try #require(response.status == .ok, "\(query): \(String(buffer: response.body))")
                let json = try response.json()
                return (try #require(json["issuedTokens"] as? [[String: Any]]), json["nextPageToken"] as? String)
            }
            let holders = try await page("vehicle=v-1&valid=true")
            #expect(holders.entries.map { $0["account"] as? String } == ["ann"])
            #expect(
                holders.entries.first?["vehicleId"] as? String == "v-1"
                    && holders.entries.first?["kid"] as? String == TestKeys.driver.privateKeyID)
            try await waitUntil { try await page("outcome=refused").entries.count == 1 }
            #expect(try await page("outcome=refused").entries.first?["reason"] as? String == "not_assigned")
            #expect(try await page("account=cai&outcome=issued").entries.count == 5)

            // Five of cai's in pages of two, newest first, each once.
            var seen: [String] = [], token: String?, pages = 0
            repeat {
                let next = try await page("trip=t-1&pageSize=2" + (token.map { "&pageToken=" + $0 } ?? ""))
                seen += next.entries.compactMap { $0["id"] as? String }
                token = next.next
                pages += 1
            } while token != nil && pages < 10
            #expect(pages == 3 && seen.count == 5 && Set(seen).count == 5 && seen == seen.sorted(by: >))

            let later = clock.now.addingTimeInterval(3600)
            clock.advance(by: 3600)
            #expect(try await page("vehicle=v-1&valid=true").entries.isEmpty, "expired tokens are not valid")
            #expect(try await page("vehicle=v-1").entries.count == 1, "but stay in the record")
            #expect(try await page("since=\(Int64(later.timeIntervalSince1970))").entries.isEmpty)
            #expect(try await page("since=\(Int64.max)").entries.isEmpty)
            #expect(try await page("since=9999-12-31T23:59:59Z").entries.isEmpty)
            #expect(try await page("since=2000-01-01T00:00:00Z").entries.count == 7)

            for bad in [
                "pageSize=0", "pageSize=1001", "valid=false", "outcome=maybe", "since=yesterday", "pageToken=zz",
                "vehicle=a&trip=b", "vehicleId=v-1", "vehicle=",
            ] {
                let response = try await client.admin(.get, "/v1/admin/issued-tokens?" + bad)
                try response.expectRefusal(.badRequest, "INVALID_ARGUMENT")
            }
            try await client.send(.get, "/v1/admin/issued-tokens").expectRefusal(.unauthorized, "UNAUTHENTICATED")
        }
    }

    @Test("fleetauth audit prints the record as a table or as JSON lines, with the API's filters")
    func auditCommand() async throws {
        try await TestServer.serve(.sqlite) { client, server in
            try await client.createAccount("ann", role: "driver")
            try await client.assign("vehicles/v-1/driver", to: "ann")
            let session = try await client.logIn("ann")
            #expect(try await client.token("driver/v-1", session: session).status == .ok)
            try await client.token("driver/v-9", session: session).expectRefusal(.forbidden, "PERMISSION_DENIED")
            let store = server.server.store
            try await waitUntil { try await store.records(matching: TokenRecordQuery()).count == 2 }
            let folder = server.configuration.dataDirectory

            let lines = try await ChildProcess.runFleetauth(["audit", "--data-dir", folder, "--json"])
            #expect(lines.succeeded, "\(lines.output)")
            let objects = try lines.output.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            #expect(objects.map { $0["outcome"] as? String } == ["refused", "issued"], "newest first")
            #expect(
                objects.last?["vehicleId"] as? String == "v-1"
                    && objects.last?["kid"] as? String == TestKeys.driver.privateKeyID)
            #expect(!lines.output.contains(session))

            let table = try await ChildProcess.runFleetauth([
                "audit", "--data-dir", folder, "--vehicle", "v-1", "--valid",
            ])
            #expect(
                table.succeeded && table.output.contains("TIME") && table.output.contains("vehicle/v-1"),
                "\(table.output)")
            #expect(!table.output.contains("v-9"))
            let refused = try await ChildProcess.runFleetauth(["audit", "--data-dir", folder, "--outcome", "refused"])
            #expect(refused.output.contains("not_assigned"), "\(refused.output)")
            let bad = try await ChildProcess.runFleetauth([
                "audit", "--data-dir", folder, "--vehicle", "a", "--trip", "b",
            ])
            #expect(!bad.succeeded && bad.output.contains("give one of --vehicle"))
        }
    }

    @Test(
        "the store refusing writes: records wait in memory and tokens flow; past the buffer 503; every record written once it can"
    )
    func storeRefusingWrites() async throws {
        var options = TestServer.options()
        options.record = TokenRecorder.Settings(bufferLimit: 5)
        options.tokenRequestsPerMinute = 0
        try await TestServer.serve(.sqlite, options: options) { client, server in
            try await client.createAccount("ann", role: "driver")
            try await client.assign("vehicles/v-1/driver", to: "ann")
            let session = try await client.logIn("ann")
            // The record's own file fills; the grants' file goes on serving.
            let database = server.server.store.recordDatabase
            try await database.capSQLiteSize(atPages: nil)
            // A flood of refusals has a share of the buffer of its own: tokens still flow.
            for _ in 0..<20 {
                try await client.token("driver/v-1", session: nil).expectRefusal(.unauthorized, "UNAUTHENTICATED")
            }
            #expect(
                try await client.token("driver/v-1", session: session).status == .ok,
                "refusals do not use up the tokens' share")
            // The file's last pages have room for a few records; then writes fail, five records
            // wait, and the next token is refused.
            var handedOut = 1, full: TestResponse?
            for _ in 0..<500 where full == nil {
                let answer = try await client.token("driver/v-1", session: session)
                if answer.status == .ok { handedOut += 1 } else { full = answer }
            }
            let refused = try #require(full, "the capped database took every record")
            let message = try refused.expectRefusal(.serviceUnavailable, "UNAVAILABLE")
            #expect(message.contains("record of tokens cannot be written"), "\(message)")
            #expect(refused.headers[.retryAfter] == "30")

            try await database.capSQLiteSize(atPages: 1 << 30)
            let store = server.server.store
            try await waitUntil("every token handed out has its record once the store takes writes") {
                try await store.records(matching: TokenRecordQuery(outcome: .issued, limit: 1000)).count == handedOut
            }
            // The rows land a moment before the writer lets go of the records it held.
            try await waitUntil("tokens are handed out again") {
                try await client.token("driver/v-1", session: session).status == .ok
            }
            let metrics = String(buffer: try await client.send(.get, "/metrics").body)
            #expect((PrometheusText.value(of: "fleetauth_token_record_write_failures_total", in: metrics) ?? 0) >= 1)
            #expect((PrometheusText.value(of: "fleetauth_token_record_buffer_full_total", in: metrics) ?? 0) >= 1)
        }
    }

    @Test("records older than the retention are pruned; --no-record keeps none")
    func retentionAndOff() async throws {
        let clock = TestClock()
        var options = TestServer.options(clock: clock)
        options.record = TokenRecorder.Settings(retention: .seconds(3600))
        try await TestServer.serve(.sqlite, options: options) { client, server in
            try await client.createAccount("ann", role: "driver")
            try await client.assign("vehicles/v-1/driver", to: "ann")
            let session = try await client.logIn("ann")
            #expect(try await client.token("driver/v-1", session: session).status == .ok)
            clock.advance(by: 2 * 3600)
            #expect(try await client.token("driver/v-1", session: try await client.logIn("ann")).status == .ok)
            let store = server.server.store
            try await waitUntil("the old record pruned, the new one kept") {
                try await store.records(matching: TokenRecordQuery()).count == 1
            }
        }
        var off = TestServer.options()
        off.record = TokenRecorder.Settings(isOn: false)
        try await TestServer.serve(.sqlite, options: off) { client, server in
            try await client.createAccount("ann", role: "driver")
            try await client.assign("vehicles/v-1/driver", to: "ann")
            #expect(try await client.token("driver/v-1", session: try await client.logIn("ann")).status == .ok)
            try await client.token("driver/v-2", session: nil).expectRefusal(.unauthorized, "UNAUTHENTICATED")
            try await Task.sleep(for: .milliseconds(200))
            #expect(try await server.server.store.records(matching: TokenRecordQuery()).isEmpty)
        }
    }
}
