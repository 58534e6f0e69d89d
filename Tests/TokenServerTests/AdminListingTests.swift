import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import TokenServer

/// What the admin API tells an operator, and the console reads: the accounts with their
/// sessions and assignments, the assignments by resource, ended sessions, the live figures;
/// and the console's page, served only when asked for.
@Suite("Admin API: listings, sessions, live figures, the console's page")
struct AdminListingTests {
    @Test(
        "accounts list their role, identity, unexpired sessions and assignments; assignments filter by kind, id and account",
        arguments: StoreBackend.allCases)
    func listings(backend: StoreBackend) async throws {
        try await TestServer.serve(backend) { client, _ in
            _ = try await client.enroll(
                "ann", role: "driver", assigned: ["vehicles/v-1/driver", "vehicles/v-2/driver"])
            _ = try await client.logIn("ann")
            try await client.createAccount("cat", role: "consumer")
            try await client.assign("trips/t-1/consumer", to: "cat")

            let listed = try await client.admin(.get, "/v1/admin/accounts").json()
            #expect((listed["roles"] as? [String])?.contains("delivery-trusted-driver") == true)
            #expect(listed["nextPageToken"] == nil)
            let accounts = try #require(listed["accounts"] as? [[String: Any]])
            #expect(accounts.map { $0["username"] as? String } == ["ann", "cat"])
            #expect(accounts[0]["role"] as? String == "driver" && accounts[0]["sessions"] as? Int == 2)
            #expect(accounts[1]["sessions"] as? Int == 0)
            let annAssigned = try #require(accounts[0]["assignments"] as? [[String: Any]])
            #expect(annAssigned.map { $0["path"] as? String } == ["vehicles/v-1/driver", "vehicles/v-2/driver"])
            #expect(!String(buffer: try await client.admin(.get, "/v1/admin/accounts").body).contains("correct horse"))

            let trips = try await client.admin(.get, "/v1/admin/assignments?kind=trip").json()
            #expect((trips["assignments"] as? [[String: Any]])?.map { $0["resourceId"] as? String } == ["t-1"])
            let kinds = try #require(trips["kinds"] as? [[String: Any]])
            #expect(
                kinds.first { $0["kind"] as? String == "delivery-vehicle" }?["template"] as? String
                    == "delivery-vehicles/{id}/driver")
            #expect(
                kinds.first { $0["kind"] as? String == "delivery-vehicle" }?["roles"] as? [String] == [
                    "delivery-driver", "delivery-trusted-driver",
                ])
            let one =
                try await client.admin(.get, "/v1/admin/assignments?resourceId=v-2&username=ann").json()["assignments"]
                as? [[String: Any]]
            #expect(one?.map { $0["resourceId"] as? String } == ["v-2"])
            try await client.admin(.get, "/v1/admin/assignments?kind=plane").expectRefusal(
                .badRequest, "INVALID_ARGUMENT")

            // A page at a time: accounts by username, assignments by kind and id.
            let firstAccount = try await client.admin(.get, "/v1/admin/accounts?pageSize=1").json()
            #expect((firstAccount["accounts"] as? [[String: Any]])?.map { $0["username"] as? String } == ["ann"])
            let accountToken = try #require(firstAccount["nextPageToken"] as? String)
            let secondAccount = try await client.admin(.get, "/v1/admin/accounts?pageSize=1&pageToken=\(accountToken)")
                .json()
            #expect((secondAccount["accounts"] as? [[String: Any]])?.map { $0["username"] as? String } == ["cat"])
            #expect((secondAccount["accounts"] as? [[String: Any]])?.first?["sessions"] as? Int == 0)
            #expect(secondAccount["nextPageToken"] == nil)
            var pages: [String] = [], token: String?
            repeat {
                let page = try await client.admin(
                    .get, "/v1/admin/assignments?pageSize=2" + (token.map { "&pageToken=\($0)" } ?? "")
                ).json()
                pages.append(
                    ((page["assignments"] as? [[String: Any]]) ?? []).compactMap { $0["resourceId"] as? String }.joined(
                        separator: ","))
                token = page["nextPageToken"] as? String
            } while token != nil && pages.count < 5
            #expect(pages == ["t-1,v-1", "v-2"])
            try await client.admin(.get, "/v1/admin/assignments?pageToken=nonsense").expectRefusal(
                .badRequest, "INVALID_ARGUMENT")
            try await client.admin(.get, "/v1/admin/accounts?pageSize=0").expectRefusal(.badRequest, "INVALID_ARGUMENT")
            let unknown = try await client.admin(.get, "/v1/admin/assignments?vehicle=v-1").expectRefusal(
                .badRequest, "INVALID_ARGUMENT")
            #expect(unknown.contains("unknown parameter \"vehicle\""))
            try await client.send(.get, "/v1/admin/assignments").expectRefusal(.unauthorized, "UNAUTHENTICATED")
        }
    }

    @Test(
        "ending an account's sessions refuses its next token request at once; an unknown account is 404",
        arguments: StoreBackend.allCases)
    func endSessions(backend: StoreBackend) async throws {
        try await TestServer.serve(backend) { client, _ in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            #expect(try await client.token("driver/v-1", session: session).status == .ok)
            let ended = try await client.admin(.delete, "/v1/admin/accounts/ann/sessions")
            #expect(ended.status == .ok)
            #expect(try ended.json()["endedSessions"] as? Int == 1)
            try await client.token("driver/v-1", session: session).expectRefusal(.unauthorized, "UNAUTHENTICATED")
            #expect(
                try await client.admin(.delete, "/v1/admin/accounts/ann/sessions").json()["endedSessions"] as? Int == 0)
            try await client.admin(.delete, "/v1/admin/accounts/nobody/sessions").expectRefusal(.notFound, "NOT_FOUND")
            // The account itself is untouched: it logs in again.
            #expect(try await client.token("driver/v-1", session: try await client.logIn("ann")).status == .ok)
        }
    }

    @Test(
        "the admin API refuses a page of another origin, even with the key; its own origin and curl (no Origin) are answered"
    )
    func otherOrigins() async throws {
        try await TestServer.serve { client, _ in
            func accounts(origin: String?) async throws -> TestResponse {
                var headers: HTTPFields = [.authorization: "Bearer \(client.adminKey)"]
                if let origin { headers[.origin] = origin }
                return try await client.http.execute(
                    uri: "/v1/admin/accounts", method: .get, headers: headers, body: nil)
            }
            let refusal = try await accounts(origin: "https://attacker.example").expectRefusal(
                .forbidden, "PERMISSION_DENIED")
            #expect(refusal.contains("another origin"))
            // The test client names the server `localhost`, with no port: its own origin is that.
            #expect(try await accounts(origin: "http://localhost").status == .ok)
            #expect(try await accounts(origin: nil).status == .ok)
        }
    }

    @Test(
        "the live stream sends figures at once and every second: readiness, totals, records written, and rates by kind and reason; never a token"
    )
    func liveFigures() async throws {
        try await TestServer.serve { client, _ in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            var stream = try await LiveStream(client)
            let first = try #require(try await stream.next())
            #expect(first["ready"] as? Bool == true && first["issued"] as? Int == 0 && first["perSecond"] == nil)
            let token = try #require(try await client.token("driver/v-1", session: session).json()["token"] as? String)
            try await client.token("driver/v-2", session: session).expectRefusal(.forbidden, "PERMISSION_DENIED")
            // The rates of the token and of the refusal may come in one event or in two.
            var events: [[String: Any]] = []
            let sent = ContinuousClock.now
            while events.last.map({
                $0["issued"] as? Int != 1 || $0["refused"] as? Int != 1 || $0["recordsWritten"] as? Int != 2
            }) ?? true,
                ContinuousClock.now - sent < .seconds(10), let event = try await stream.next()
            {
                events.append(event)
            }
            #expect(events.last?["issued"] as? Int == 1 && events.last?["refused"] as? Int == 1, "\(events)")
            #expect(events.last?["recordsWritten"] as? Int == 2, "\(events)")
            func rate(_ group: String, _ name: String) -> Double {
                events.compactMap { (($0["perSecond"] as? [String: Any])?[group] as? [String: Double])?[name] }.max()
                    ?? 0
            }
            #expect(rate("issued", "driver") > 0 && rate("refused", "not_assigned") > 0, "\(events)")
            #expect(
                !stream.text.contains(token) && !stream.text.contains(session) && !stream.text.contains(client.adminKey)
            )
        }
    }

    @Test(
        "a drain ends an open live stream within a second with an event that says so; a new one is 503 with Retry-After"
    )
    func liveStreamAndDrain() async throws {
        try await TestServer.serve { client, server in
            var stream = try await LiveStream(client)
            #expect(try await stream.next()?["ready"] as? Bool == true)
            server.server.options.lifecycle.beginDraining()
            let drained = ContinuousClock.now
            var last: [String: Any]?
            while let event = try await stream.next() { last = event }
            #expect(ContinuousClock.now - drained < .seconds(1))
            #expect(
                last?["ready"] as? Bool == false
                    && (last?["reasons"] as? [String])?.first?.hasPrefix("draining") == true, "\(last ?? [:])")
            let again = try await client.admin(.get, "/v1/admin/live")
            #expect(again.status == .serviceUnavailable && again.headers[.retryAfter] != nil)
        }
    }

    @Test("the live figures count a session's request over its limit as a 429, in the totals and per second")
    func liveFiguresCount429s() async throws {
        var options = TestServer.options()
        options.tokenRequestsPerMinute = 1
        try await TestServer.serve(options: options) { client, _ in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            var stream = try await LiveStream(client)
            #expect(try await stream.next()?["limited"] as? Int == 0)
            #expect(try await client.token("driver/v-1", session: session).status == .ok)
            try await client.token("driver/v-1", session: session).expectRefusal(.tooManyRequests, "RESOURCE_EXHAUSTED")
            var events: [[String: Any]] = []
            let sent = ContinuousClock.now
            while events.last?["limited"] as? Int != 1, ContinuousClock.now - sent < .seconds(10),
                let event = try await stream.next()
            {
                events.append(event)
            }
            #expect(events.last?["limited"] as? Int == 1, "\(events)")
            let perSecond = events.compactMap { ($0["perSecond"] as? [String: Any])?["limited"] as? Double }.max() ?? 0
            #expect(perSecond > 0, "\(events)")
        }
    }

    @Test("the console's page is served only when asked for, with a strict policy, and holds no key")
    func consolePage() async throws {
        try await TestServer.serve { client, _ in
            _ = try await client.send(.get, "/console/").expectRefusal(.notFound, "NOT_FOUND")
        }
        var options = TestServer.options()
        options.servesConsole = true
        try await TestServer.serve(options: options) { client, _ in
            let page = try await client.send(.get, "/console/")
            #expect(
                page.status == .ok
                    && String(buffer: page.body).contains("<title>FleetAuth token server console</title>"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            #expect(page.headers[.contentSecurityPolicy]?.contains("unsafe-inline") == false)
            for file in ["console.js", "kit.js", "kit.css", "console.css"] {
                let answer = try await client.send(.get, "/console/\(file)")
                #expect(answer.status == .ok && answer.headers[.cacheControl] == "no-store", "\(file)")
                #expect(!String(buffer: answer.body).contains(client.adminKey))
            }
        }
    }
}

/// `GET /v1/admin/live` as a client reads it: one `figures` event at a time, as JSON.
private struct LiveStream {
    private var chunks: HTTPClientResponse.Body.AsyncIterator
    private var buffered = ""
    /// Everything read so far.
    private(set) var text = ""

    init(_ client: Client) async throws {
        let port = try #require(client.http.port)
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/admin/live")
        request.headers.add(name: "Authorization", value: "Bearer \(client.adminKey)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        #expect(response.status == .ok && response.headers.first(name: "content-type") == "text/event-stream")
        chunks = response.body.makeAsyncIterator()
    }

    /// The next event's data, or `nil` once the stream ended.
    mutating func next() async throws -> [String: Any]? {
        while true {
            if let end = buffered.range(of: "\n\n") {
                let block = buffered[..<end.lowerBound]
                buffered = String(buffered[end.upperBound...])
                #expect(block.hasPrefix("event: figures\ndata: "))
                let data = block.split(separator: "\n").first { $0.hasPrefix("data: ") }?.dropFirst(6) ?? ""
                return try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]
            }
            guard let chunk = try await chunks.next() else { return nil }
            buffered += String(buffer: chunk)
            text += String(buffer: chunk)
        }
    }
}
