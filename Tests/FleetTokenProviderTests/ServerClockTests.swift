import FleetTokenProvider
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Token life judged on the token server's clock: phones hours or seconds off fetch no more
/// than phones with the right time, and none hands out a token after it really expired.
@Suite("Token life on the server's clock", .timeLimit(.minutes(3)))
struct ServerClockTests {
    let v1 = AuthorizationContext(vehicleID: "V1")

    /// 6-second tokens asked for every 100 ms over 10 s through the real HTTP fetcher from a
    /// real loopback server, by a phone whose clock is `phoneAhead` seconds off. Time is the
    /// server's test clock, stepped by the test, so a busy machine asks as often as an idle one;
    /// the answers' `Date` header is that clock's, to the second. The right clock needs a
    /// fetch about every 3 s.
    @Test("a phone whose clock is off fetches as often as one that is right", arguments: [-7200, -50, 0, 50, 7200])
    func fetchesStayTheMinimum(phoneAhead: Int) async throws {
        try await FakeTokenServer.run(clock: ManualTokenClock(now: Date(timeIntervalSince1970: 1_800_000_000.37))) {
            server in
            await server.state.setFallback(.token(lifetime: 6))
            let events = EventRecorder()
            let provider = CachingTokenProvider(
                fetcher: try server.fetcher(requestTimeout: .seconds(120)),
                configuration: .init(fetchTimeout: .seconds(120)),
                clock: ShiftedTokenClock(base: server.clock, ahead: .seconds(phoneAhead)),
                onEvent: events.hook
            )
            var handedOutLate: [Double] = []
            for _ in 0..<100 {
                let token = try await provider.token(for: v1)
                let left = try #require(TestJWT.expiry(of: token)).timeIntervalSince(server.clock.now)
                if left <= 0 { handedOutLate.append(left) }
                server.clock.advance(by: .milliseconds(100))
            }
            let fetches = await server.requestCount
            // The right clock fetches at about 0, 3, 6 and 9 s; the old code made 97 fetches
            // with the phone ahead.
            #expect((3...5).contains(fetches), "fetches with the phone \(phoneAhead) s ahead: \(fetches)")
            #expect(handedOutLate.isEmpty, "tokens handed out after they expired, seconds past: \(handedOutLate)")
            let reportedSkew = events.summary.contains { $0.hasPrefix("clockSkew ") }
            #expect(reportedSkew == (abs(phoneAhead) >= 30))
        }
    }

    /// A server that reuses tokens hands out one minted 50 minutes ago with 10 minutes left;
    /// a phone two hours ahead must still expire it in 10 minutes, not judge by its `iat`.
    @Test("a token minted long ago by a caching server expires when it really does", arguments: [-7200, 0, 7200])
    func agedTokenKeepsItsRealExpiry(phoneAhead: Int) async throws {
        try await FakeTokenServer.run(serverClock: SystemTokenClock()) { server in
            await server.state.setFallback(.token(claimLifetime: 3600, stated: [:], age: 3000))
            let phone = ShiftedTokenClock(ahead: .seconds(phoneAhead))
            let events = EventRecorder()
            let provider = CachingTokenProvider(fetcher: try realFetcher(server), clock: phone, onEvent: events.hook)
            let before = phone.now
            _ = try await provider.token(for: v1)
            let after = phone.now
            // Minted between `before` and `after` with 600 s left; the Date header is read to
            // the second, so the expiry may be off by one second either way.
            let expiresAt = try #require(events.fetchedExpiries.first)
            #expect(
                expiresAt > before.addingTimeInterval(598) && expiresAt < after.addingTimeInterval(602),
                "expires \(expiresAt.timeIntervalSince(before)) s after the fetch began, which took \(after.timeIntervalSince(before)) s"
            )
        }
    }

    /// The rule, case by case, through an in-process fetcher and a manual phone clock.
    @Test(
        "the offset comes from the Date header, never below the token's iat",
        arguments: [
            // (phone ahead of server, Date header present, iat age, expected expiry in s from the phone's now)
            ClockCase(phoneAhead: 7200, hasDate: true, age: 0, expectedLeft: 3599.5),
            ClockCase(phoneAhead: -7200, hasDate: true, age: 0, expectedLeft: 3599.5),
            ClockCase(phoneAhead: 0, hasDate: true, age: 1800, expectedLeft: 1799.5),
            // A Date header that lags the token's own iat is overruled by the iat.
            ClockCase(phoneAhead: 0, hasDate: true, age: -120, dateLag: 600, expectedLeft: 3600),
            // Without Date, a phone inside [iat, exp) is trusted…
            ClockCase(phoneAhead: 0, hasDate: false, age: 0, expectedLeft: 3600),
            ClockCase(phoneAhead: 1200, hasDate: false, age: 0, expectedLeft: 2400),
            // …and one outside it is corrected as if the token were just minted.
            ClockCase(phoneAhead: 7200, hasDate: false, age: 0, expectedLeft: 3600),
            ClockCase(phoneAhead: -7200, hasDate: false, age: 0, expectedLeft: 3600),
        ])
    func offsetRule(_ clockCase: ClockCase) async throws {
        let serverNow = Date(timeIntervalSince1970: 1_800_000_000)
        let phone = ManualTokenClock(now: serverNow + TimeInterval(clockCase.phoneAhead))
        let issuedAt = serverNow - TimeInterval(clockCase.age)
        let token = TestJWT.make(issuedAt: issuedAt, expiresAt: issuedAt + 3600, authorization: [:], serial: 1)
        let fetched = FetchedToken(
            token: token, serverDate: clockCase.hasDate ? serverNow - TimeInterval(clockCase.dateLag) : nil)
        let events = EventRecorder()
        let provider = CachingTokenProvider(fetcher: FixedFetcher(fetched: fetched), clock: phone, onEvent: events.hook)
        _ = try await provider.token(for: v1)
        let expiresAt = try #require(events.fetchedExpiries.first)
        #expect(abs(expiresAt.timeIntervalSince(phone.now) - clockCase.expectedLeft) < 0.001, "\(clockCase)")
    }

    @Test("the skew is reported from the threshold on, with its sign")
    func skewIsReported() async throws {
        let serverNow = Date(timeIntervalSince1970: 1_800_000_000)
        let token = TestJWT.make(issuedAt: serverNow, expiresAt: serverNow + 3600, authorization: [:], serial: 1)
        for (phoneAhead, reported) in [(-40.0, true), (25.0, false), (40.0, true)] {
            let events = EventRecorder()
            let provider = CachingTokenProvider(
                fetcher: FixedFetcher(fetched: FetchedToken(token: token, serverDate: serverNow)),
                configuration: .init(clockSkewReportThreshold: .seconds(30)),
                clock: ManualTokenClock(now: serverNow + phoneAhead),
                onEvent: events.hook
            )
            _ = try await provider.token(for: v1)
            let skews = events.skews
            #expect(skews.count == (reported ? 1 : 0))
            if let skew = skews.first {
                #expect(
                    abs(skew.timeInterval + phoneAhead - 0.5) <= 0.001,
                    "server ahead by \(skew) with the phone \(phoneAhead) s ahead")
            }
        }
    }

    /// The real fetcher on the real transport, so the answer's `Date` is the server's own.
    private func realFetcher(_ server: FakeTokenServer) throws -> HTTPTokenFetcher {
        HTTPTokenFetcher(urlTemplate: try TokenURLTemplate(server.url("/v1/tokens/driver/{vehicleId}")))
    }
}

/// One case of the offset rule.
struct ClockCase: Sendable, CustomTestStringConvertible {
    var phoneAhead: Int
    var hasDate: Bool
    var age: Int
    var dateLag: Int = 0
    var expectedLeft: Double

    var testDescription: String {
        "phone \(phoneAhead) s ahead, \(hasDate ? "Date \(dateLag) s behind" : "no Date"), token \(age) s old"
    }
}

/// Hands out the same answer on every fetch.
private struct FixedFetcher: TokenFetcher {
    let fetched: FetchedToken

    func fetchToken(for context: AuthorizationContext) async throws -> FetchedToken { fetched }
}

/// Another clock moved by a fixed amount: a phone whose clock is set wrong.
private struct ShiftedTokenClock: TokenClock {
    var base: any TokenClock = SystemTokenClock()
    let ahead: Duration

    var now: Date { base.now + ahead.timeInterval }
}
