import Foundation
import TestSupport
import Testing

@testable import TokenServer

@Suite("Login throttling")
struct ThrottleTests {
    @Test("after too many failures for a username, even the right password waits; Retry-After says how long")
    func perUsername() async throws {
        let clock = TestClock()
        let policy = LoginThrottle.Policy(failuresPerUsername: 3, failuresPerAddress: 100, window: .seconds(60))
        try await TestServer.serve(options: TestServer.options(clock: clock, throttle: policy)) { client, _ in
            try await client.createAccount("ann", role: "driver")
            for _ in 0..<3 {
                try await client.send(.post, "/v1/sessions", json: #"{"username":"ann","password":"wrong guess"}"#)
                    .expectRefusal(.unauthorized, "UNAUTHENTICATED")
            }
            let throttled = try await client.send(
                .post, "/v1/sessions", json: #"{"username":"ann","password":"correct horse"}"#)
            try throttled.expectRefusal(.tooManyRequests, "RESOURCE_EXHAUSTED")
            #expect(throttled.headers[.retryAfter] == "60")
            // Another username is not affected.
            try await client.createAccount("bob", role: "driver")
            _ = try await client.logIn("bob")
            clock.advance(by: 30)
            #expect(
                try await client.send(.post, "/v1/sessions", json: #"{"username":"ann","password":"correct horse"}"#)
                    .headers[.retryAfter] == "30")
            clock.advance(by: 30)
            _ = try await client.logIn("ann")
        }
    }

    @Test("after too many failures from one address, every username from it waits")
    func perAddress() async throws {
        let policy = LoginThrottle.Policy(failuresPerUsername: 100, failuresPerAddress: 4, window: .seconds(60))
        try await TestServer.serve(options: TestServer.options(throttle: policy)) { client, _ in
            try await client.createAccount("ann", role: "driver")
            for guess in 0..<4 {
                try await client.send(
                    .post, "/v1/sessions", json: #"{"username":"user\#(guess)","password":"wrong guess"}"#
                )
                .expectRefusal(.unauthorized, "UNAUTHENTICATED")
            }
            try await client.send(.post, "/v1/sessions", json: #"{"username":"ann","password":"correct horse"}"#)
                .expectRefusal(.tooManyRequests, "RESOURCE_EXHAUSTED")
        }
    }

    @Test("the throttle forgets failures once they leave the window, and bounds what it tracks")
    func forgetting() async throws {
        let clock = TestClock()
        let throttle = LoginThrottle(
            policy: .init(failuresPerUsername: 2, failuresPerAddress: 2, window: .seconds(10), trackedKeys: 3),
            now: clock.function)
        await throttle.recordFailure(username: "a", address: "1.1.1.1")
        await throttle.recordFailure(username: "a", address: "1.1.1.1")
        #expect(await throttle.wait(username: "a", address: nil) == .seconds(10))
        #expect(await throttle.wait(username: "b", address: "1.1.1.1") == .seconds(10))
        clock.advance(by: 10)
        #expect(await throttle.wait(username: "a", address: "1.1.1.1") == nil)
        for name in ["p", "q", "r", "s"] { await throttle.recordFailure(username: name, address: nil) }
        await throttle.recordFailure(username: "t", address: nil)
        await throttle.recordFailure(username: "t", address: nil)
        #expect(await throttle.wait(username: "t", address: nil) == .seconds(10))
    }
}
