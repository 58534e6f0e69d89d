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
    @Test("accounts list their role, identity, unexpired sessions and assignments; assignments filter by kind, id and account", arguments: StoreBackend.allCases)
    func listings(backend: StoreBackend) async throws {
        try await TestServer.serve(backend) { client, _ in
            _ = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver", "vehicles/v-2/driver"])
            _ = try await client.logIn("ann")
            try await client.createAccount("cat", role: "consumer")
            try await client.assign("trips/t-1/consumer", to: "cat")

            let accounts = try #require(try await client.admin(.get, "/v1/admin/accounts").json()["accounts"] as? [[String: Any]])
            #expect(accounts.map { $0["username"] as? String } == ["ann", "cat"])
            #expect(accounts[0]["role"] as? String == "driver" && accounts[0]["sessions"] as? Int == 2)
            #expect(accounts[1]["sessions"] as? Int == 0)
            let annAssigned = try #require(accounts[0]["assignments"] as? [[String: Any]])
            #expect(annAssigned.map { $0["path"] as? String } == ["vehicles/v-1/driver", "vehicles/v-2/driver"])
            #expect(!String(buffer: try await client.admin(.get, "/v1/admin/accounts").body).contains("correct horse"))

            let trips = try await client.admin(.get, "/v1/admin/assignments?kind=trip").json()
            #expect((trips["assignments"] as? [[String: Any]])?.map { $0["resourceId"] as? String } == ["t-1"])
            let kinds = try #require(trips["kinds"] as? [[String: Any]])
            #expect(kinds.first { $0["kind"] as? String == "delivery-vehicle" }?["template"] as? String == "delivery-vehicles/{id}/driver")
            #expect(kinds.first { $0["kind"] as? String == "delivery-vehicle" }?["roles"] as? [String] == ["delivery-driver", "delivery-trusted-driver"])
            let one = try await client.admin(.get, "/v1/admin/assignments?resourceId=v-2&username=ann").json()["assignments"] as? [[String: Any]]
            #expect(one?.map { $0["resourceId"] as? String } == ["v-2"])
            try await client.admin(.get, "/v1/admin/assignments?kind=plane").expectRefusal(.badRequest, "INVALID_ARGUMENT")
            let unknown = try await client.admin(.get, "/v1/admin/assignments?vehicle=v-1").expectRefusal(.badRequest, "INVALID_ARGUMENT")
            #expect(unknown.contains("unknown parameter \"vehicle\""))
            try await client.send(.get, "/v1/admin/assignments").expectRefusal(.unauthorized, "UNAUTHENTICATED")
        }
    }

    @Test("ending an account's sessions refuses its next token request at once; an unknown account is 404", arguments: StoreBackend.allCases)
    func endSessions(backend: StoreBackend) async throws {
        try await TestServer.serve(backend) { client, _ in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            #expect(try await client.token("driver/v-1", session: session).status == .ok)
            let ended = try await client.admin(.delete, "/v1/admin/accounts/ann/sessions")
            #expect(ended.status == .ok)
            #expect(try ended.json()["endedSessions"] as? Int == 1)
            try await client.token("driver/v-1", session: session).expectRefusal(.unauthorized, "UNAUTHENTICATED")
            #expect(try await client.admin(.delete, "/v1/admin/accounts/ann/sessions").json()["endedSessions"] as? Int == 0)
            try await client.admin(.delete, "/v1/admin/accounts/nobody/sessions").expectRefusal(.notFound, "NOT_FOUND")
            // The account itself is untouched: it logs in again.
            #expect(try await client.token("driver/v-1", session: try await client.logIn("ann")).status == .ok)
        }
    }

    @Test("the admin API refuses a page of another origin, even with the key; its own origin and curl (no Origin) are answered")
    func otherOrigins() async throws {
        try await TestServer.serve { client, _ in
            func accounts(origin: String?) async throws -> TestResponse {
                var headers: HTTPFields = [.authorization: "Bearer \(client.adminKey)"]
                if let origin { headers[.origin] = origin }
                return try await client.http.execute(uri: "/v1/admin/accounts", method: .get, headers: headers, body: nil)
            }
            let refusal = try await accounts(origin: "https://attacker.example").expectRefusal(.forbidden, "PERMISSION_DENIED")
            #expect(refusal.contains("another origin"))
            // The test client names the server `localhost`, with no port: its own origin is that.
            #expect(try await accounts(origin: "http://localhost").status == .ok)
            #expect(try await accounts(origin: nil).status == .ok)
        }
    }

    @Test("the live stream sends figures at once and every second: readiness, totals, and rates by kind and reason; never a token")
    func liveFigures() async throws {
        try await TestServer.serve { client, _ in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            let port = try #require(client.http.port)
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/admin/live")
            request.headers.add(name: "Authorization", value: "Bearer \(client.adminKey)")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(response.status == .ok && response.headers.first(name: "content-type") == "text/event-stream")
            var events = response.body.makeAsyncIterator()
            var received = String(buffer: try #require(await events.next()))
            #expect(received.hasPrefix("event: figures\ndata: {"))
            #expect(received.contains(#""ready":true"#) && received.contains(#""issued":0"#))
            let token = try #require(try await client.token("driver/v-1", session: session).json()["token"] as? String)
            try await client.token("driver/v-2", session: session).expectRefusal(.forbidden, "PERMISSION_DENIED")
            let sent = ContinuousClock.now
            while !received.contains(#""issued":1"#) || !received.contains(#""not_assigned":"#) {
                guard ContinuousClock.now - sent < .seconds(10), let chunk = try await events.next() else { break }
                received += String(buffer: chunk)
            }
            let last = try #require(received.split(separator: "\n").last { $0.hasPrefix("data: ") }?.dropFirst(6))
            let figures = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
            #expect(figures["issued"] as? Int == 1 && figures["refused"] as? Int == 1, "\(figures)")
            let rates = try #require(figures["perSecond"] as? [String: Any])
            #expect((rates["issued"] as? [String: Double])?["driver"].map { $0 > 0 } == true, "\(rates)")
            #expect((rates["refused"] as? [String: Double])?["not_assigned"].map { $0 > 0 } == true, "\(rates)")
            #expect(!received.contains(token) && !received.contains(session) && !received.contains(client.adminKey))
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
            #expect(page.status == .ok && String(buffer: page.body).contains("<title>FleetAuth token server console</title>"))
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
