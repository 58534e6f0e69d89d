import FleetAuthCodecs
import FleetTokenProvider
import FleetTokens
import Foundation
import GoogleStandIn
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// The IAM signer and the metadata-server credentials against the Google stand-in, a real
/// HTTP server on loopback.
@Suite("Keyless signing through IAM", .timeLimit(.minutes(3)))
struct KeylessSigningTests {
    static let driver = "fe-driver@keyless-test.iam.gserviceaccount.com"

    /// Runs a stand-in while `body` runs, with credentials and a signer for ``driver``
    /// pointed at it; retries wait no real time unless `backoff` waits.
    func withStandIn<Result: Sendable>(
        signJwtDelay: Duration = .zero,
        maxConcurrentCalls: Int = 16,
        timeout: Duration = .seconds(30),
        maxAttempts: Int = 3,
        silence: Duration = .seconds(2),
        backoff: @escaping @Sendable (Duration) async throws -> Void = { _ in },
        _ body: @Sendable @escaping (GoogleStandIn, IAMSigner) async throws -> Result
    ) async throws -> Result {
        let standIn = GoogleStandIn(serviceAccounts: [Self.driver], signJwtDelay: signJwtDelay, silence: silence)
        return try await standIn.application(port: 0).test(.live) { client in
            let port = try #require(client.port)
            let retries = RetryPolicy(
                maxAttempts: maxAttempts, initialBackoff: .milliseconds(1), maxBackoff: .milliseconds(2), sleep: backoff
            )
            let credentials = try MetadataServerCredentials(host: "127.0.0.1:\(port)", retryPolicy: retries)
            let signer = try IAMSigner(
                accountEmail: Self.driver,
                credentials: credentials,
                iamCredentialsURL: URL(string: "http://127.0.0.1:\(port)")!,
                timeout: timeout,
                retryPolicy: retries,
                maxConcurrentCalls: maxConcurrentCalls
            )
            return try await body(standIn, signer)
        }
    }

    @Test(
        "the token is exactly what IAM signed: our claims, IAM's header and kid, and it verifies with the account's published keys"
    )
    func tokenIsWhatIAMSigned() async throws {
        try await withStandIn { standIn, signer in
            let minted = try await signer.mint(.driver(vehicleID: "vehicle-7"), lifetime: .seconds(600), at: Date())
            let segments = minted.token.split(separator: ".")
            let header =
                try JSONSerialization.jsonObject(with: try #require(Base64URL.decode(segments[0]))) as? [String: String]
            let currentKey = try #require(try await standIn.accounts.publishedKeys(of: Self.driver).first)
            #expect(header == ["alg": "RS256", "kid": currentKey.id, "typ": "JWT"])
            #expect(minted.keyID == currentKey.id, "the kid IAM chose, read from the header it signed")
            let keys = JSONWebKeySet(keys: [
                try JSONWebKey(publishing: currentKey.privateKey.publicKey, keyID: currentKey.id)
            ])
            let verifier = TokenVerifier(trusting: try keys.trustedAccounts(email: Self.driver, role: .driverSDKUser))
            let verified = try verifier.verify(minted.token)
            #expect(verified.claims == minted.claims)
            #expect(verified.authorization.vehicleID == "vehicle-7")
            #expect(minted.claims.issuer == Self.driver && minted.claims.lifetime == 600)
        }
    }

    @Test("the access token is fetched once and reused for every signature")
    func accessTokenIsReused() async throws {
        try await withStandIn { standIn, signer in
            for index in 0..<20 {
                _ = try await signer.mint(.driver(vehicleID: "vehicle-\(index)"), lifetime: .seconds(600), at: Date())
            }
            let calls = await standIn.accounts.calls
            #expect(calls.metadataToken == 1)
            #expect(calls.signJwt == 20)
        }
    }

    @Test("an access token due for a refresh is still handed out while the new one is fetched; an expired one is not")
    func accessTokenIsRefreshedAhead() async throws {
        let standIn = GoogleStandIn(serviceAccounts: [Self.driver])
        try await standIn.application(port: 0).test(.live) { client in
            let clock = TestClock()
            let credentials = try MetadataServerCredentials(
                host: "127.0.0.1:\(try #require(client.port))", now: clock.function)
            let first = try await credentials.accessToken()
            clock.advance(by: 3599 - 200)  // inside the last five minutes: refresh due, still valid
            #expect(try await credentials.accessToken() == first, "no caller waits while the token is valid")
            var second = first
            let deadline = ContinuousClock.now + .seconds(30)
            while second == first, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
                second = try await credentials.accessToken()
            }
            #expect(second != first, "the background refresh brought a new token")
            #expect(await standIn.accounts.calls.metadataToken == 2)
            clock.advance(by: 3600)  // the second one has expired: callers wait for a third
            #expect(try await credentials.accessToken() != second)
            #expect(await standIn.accounts.calls.metadataToken == 3)
        }
    }

    @Test("identical requests in flight share one IAM call")
    func identicalRequestsShareOneCall() async throws {
        // IAM takes 3 s to answer, so that all ten callers, however slowly a loaded machine
        // starts them, arrive while the first call is in flight; a timeout that only bounds a
        // hang, so that a slow answer is not asked for twice.
        try await withStandIn(signJwtDelay: .seconds(3), timeout: .seconds(60)) { standIn, signer in
            let claims = try FleetEngineClaims(
                kind: .driver(vehicleID: "vehicle-1"), account: Self.driver, issuedAt: 1_800_000_000,
                lifetime: .seconds(600))
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<10 { group.addTask { try await signer.sign(claims) } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(tokens.count == 1)
            #expect(await standIn.accounts.calls.signJwt == 1)
        }
    }

    @Test("no more than maxConcurrentCalls IAM calls run at once")
    func concurrentCallsAreBounded() async throws {
        // Each call takes 1 s, so that calls overlap however slowly a loaded machine starts them.
        try await withStandIn(signJwtDelay: .seconds(1), maxConcurrentCalls: 2, timeout: .seconds(60)) {
            standIn, signer in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        _ = try await signer.mint(.driver(vehicleID: "v\(index)"), lifetime: .seconds(600), at: Date())
                    }
                }
                try await group.waitForAll()
            }
            let calls = await standIn.accounts.calls
            #expect(calls.signJwt == 8)
            #expect(calls.mostConcurrentSignJwt == 2)
        }
    }

    /// With one call allowed at a time, a call told to back off (429) must let another call
    /// through while it waits: the limit counts requests on the wire, not callers asleep.
    @Test("a call waiting out a backoff holds none of the maxConcurrentCalls slots")
    func backoffHoldsNoSlot() async throws {
        let (backoffs, backoffBegan) = AsyncStream.makeStream(of: Void.self)
        let endOfBackoff = Gate()
        try await withStandIn(
            maxConcurrentCalls: 1,
            backoff: { _ in
                backoffBegan.yield()
                await endOfBackoff.wait()
            }
        ) { standIn, signer in
            await standIn.accounts.injectSignJwtFaults([429])
            let backingOff = Task {
                try await signer.mint(.driver(vehicleID: "vehicle-1"), lifetime: .seconds(600), at: Date())
            }
            _ = await backoffs.first { _ in true }
            let other = Task {
                try await signer.mint(.driver(vehicleID: "vehicle-2"), lifetime: .seconds(600), at: Date())
            }
            let otherFinished = try await withThrowingTaskGroup(of: Bool.self) { race in
                race.addTask {
                    _ = try await other.value; return true
                }
                race.addTask {
                    try await Task.sleep(for: .seconds(30)); return false
                }
                defer { race.cancelAll() }
                return try await race.next() ?? false
            }
            #expect(otherFinished, "the second call waited for the first one's backoff")
            await endOfBackoff.open()
            _ = try await backingOff.value
            _ = try? await other.value
            #expect(await standIn.accounts.calls.signJwt == 3)
        }
    }

    @Test("a 403 says which role to grant on which account, holds no secret, and is not sticky")
    func permissionDeniedIsClearAndNotSticky() async throws {
        try await withStandIn { standIn, signer in
            await standIn.accounts.setDenied(true, for: Self.driver)
            let error = await #expect(throws: GoogleAPIError.self) {
                try await signer.mint(.driver(vehicleID: "vehicle-1"), lifetime: .seconds(600), at: Date())
            }
            let text = "\(String(describing: error))"
            #expect(error?.httpStatus == 403 && error?.status == "PERMISSION_DENIED")
            #expect(text.contains("roles/iam.serviceAccountTokenCreator") && text.contains(Self.driver))
            #expect(!text.contains("ya29.") && !text.contains("vehicle-1"), "no access token or payload in \(text)")
            #expect(await standIn.accounts.calls.signJwt == 1, "a refusal is not retried")
            await standIn.accounts.setDenied(false, for: Self.driver)
            _ = try await signer.mint(.driver(vehicleID: "vehicle-1"), lifetime: .seconds(600), at: Date())
        }
    }

    @Test("429 and 5xx are tried again and then succeed; attempts that run out give a clear error")
    func transientFailuresAreRetried() async throws {
        try await withStandIn { standIn, signer in
            await standIn.accounts.injectSignJwtFaults([429, 500])
            _ = try await signer.mint(.driver(vehicleID: "vehicle-1"), lifetime: .seconds(600), at: Date())
            #expect(await standIn.accounts.calls.signJwt == 3)
            await standIn.accounts.injectSignJwtFaults([503, 503, 503])
            let error = await #expect(throws: GoogleAPIError.self) {
                try await signer.mint(.driver(vehicleID: "vehicle-2"), lifetime: .seconds(600), at: Date())
            }
            #expect(error?.httpStatus == 503 && error?.isTransient == true)
            _ = try await signer.mint(.driver(vehicleID: "vehicle-3"), lifetime: .seconds(600), at: Date())
        }
    }

    /// IAM holds both attempts for 120 s; the signer gives up on each after 5 s, so the caller
    /// hears of it after about 10 s, long before the silence ends (60 s leaves room for a
    /// loaded machine), and the next call (IAM answering again, well within the 5 s) succeeds.
    @Test("IAM answering nothing: the wait is bounded by the timeout, and the next call works")
    func silenceIsBounded() async throws {
        try await withStandIn(timeout: .seconds(5), maxAttempts: 2, silence: .seconds(120)) { standIn, signer in
            await standIn.accounts.injectSignJwtFaults([0, 0])
            let start = ContinuousClock.now
            let error = await #expect(throws: GoogleAPIError.self) {
                try await signer.mint(.driver(vehicleID: "vehicle-1"), lifetime: .seconds(600), at: Date())
            }
            let waited = ContinuousClock.now - start
            #expect(waited >= .seconds(9), "both attempts waited out their timeout")
            #expect(waited < .seconds(60), "bounded by two 5 s timeouts, not the 120 s silence")
            #expect(error?.message.contains("no answer") == true)
            _ = try await signer.mint(.driver(vehicleID: "vehicle-2"), lifetime: .seconds(600), at: Date())
        }
    }
}

/// A door that callers wait at until it is opened, once.
private actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Returns once the gate is open.
    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Opens the gate for everyone waiting and to come.
    func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
    }
}
