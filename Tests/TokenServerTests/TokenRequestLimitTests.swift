import Foundation
import TestSupport
import Testing

@testable import TokenServer

@Suite("Token requests per session")
struct TokenRequestLimitTests {
    @Test("a minute's allowance at once, then one request per 60 / limit seconds; 0 is no limit")
    func allowance() {
        let clock = TestClock()
        let limit = TokenRequestLimit(perMinute: 4, now: clock.function)
        for _ in 0..<4 { #expect(limit.admit("a") == .allowed) }
        #expect(limit.admit("a") == .limited(retryAfter: .seconds(15), isFirst: true))
        #expect(
            limit.admit("a") == .limited(retryAfter: .seconds(15), isFirst: false), "refused requests are not counted")
        #expect(limit.admit("b") == .allowed, "another caller has its own allowance")
        clock.advance(by: 10)
        #expect(limit.admit("a") == .limited(retryAfter: .seconds(5), isFirst: false))
        clock.advance(by: 5)
        #expect(limit.admit("a") == .allowed)
        #expect(
            limit.admit("a") == .limited(retryAfter: .seconds(15), isFirst: true),
            "a first refusal again after an allowed one")
        clock.advance(by: 60)
        for _ in 0..<4 { #expect(limit.admit("a") == .allowed, "a quiet minute gives the whole allowance back") }

        let none = TokenRequestLimit(perMinute: 0, now: clock.function)
        for _ in 0..<1000 { #expect(none.admit("a") == .allowed) }
    }

    @Test(
        "a looping session gets 429 with Retry-After on both paths; other sessions and the metric see it",
        arguments: StoreBackend.allCases)
    func loopingSession(backend: StoreBackend) async throws {
        let clock = TestClock()
        var options = TestServer.options(clock: clock)
        options.tokenRequestsPerMinute = 3
        try await TestServer.serve(backend, options: options) { client, _ in
            for name in ["ann", "bob"] {
                try await client.createAccount(name, role: "driver")
                try await client.assign("vehicles/v-\(name)/driver", to: name)
            }
            let ann = try await client.logIn("ann"), bob = try await client.logIn("bob")
            for _ in 0..<3 { #expect(try await client.token("driver/v-ann", session: ann).status == .ok) }
            let limited = try await client.token("driver/v-ann", session: ann)
            try limited.expectRefusal(.tooManyRequests, "RESOURCE_EXHAUSTED")
            #expect(limited.headers[.retryAfter] == "20")
            #expect(String(buffer: limited.body).contains("3 a minute"), "\(String(buffer: limited.body))")
            // A request the rules refuse still counts: a loop asking for the wrong vehicle is a loop.
            try await client.token("driver/v-bob", session: ann).expectRefusal(.tooManyRequests, "RESOURCE_EXHAUSTED")
            #expect(
                try await client.token("driver/v-bob", session: bob).status == .ok, "another session is not affected")
            let annAgain = try await client.logIn("ann")
            #expect(try await client.token("driver/v-ann", session: annAgain).status == .ok, "the limit is per session")
            clock.advance(by: 20)
            #expect(try await client.token("driver/v-ann", session: ann).status == .ok, "one more after 60 / 3 s")
            let metrics = String(buffer: try await client.send(.get, "/metrics").body)
            #expect(PrometheusText.value(of: "fleetauth_token_requests_limited_total", in: metrics) == 2)
            #expect(
                PrometheusText.value(of: #"fleetauth_token_refusals_total{reason="request_limit"}"#, in: metrics) == 2)
        }
    }
}
