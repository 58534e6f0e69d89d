import FleetTokens
import Foundation
import GoogleStandIn
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import LocalFleetEngine

/// The local Fleet Engine trusting a service account whose keys Google manages (the Google
/// stand-in on loopback), by email: tokens IAM signed, with and without `kid`, through a key
/// rotation; strangers' keys and made-up key ids refused.
@Suite("Google-managed accounts", .timeLimit(.minutes(3)))
struct GoogleManagedAccountTests {
    static let driverAccount = "fe-driver@\(TestKeys.project).iam.gserviceaccount.com"

    /// A stand-in and an engine trusting ``driverAccount`` as a driver through it (refetching
    /// at most once per `interval`).
    func withEngine(
        interval: Duration = .milliseconds(500),
        _ body: @Sendable @escaping (TestClient, GoogleStandIn) async throws -> Void
    ) async throws {
        let standIn = GoogleStandIn(serviceAccounts: [Self.driverAccount])
        // The account's keys are made now: made during the engine's first fetch, on a busy
        // machine, they can take longer than the fetch may.
        _ = try await standIn.accounts.publishedKeys(of: Self.driverAccount)
        try await standIn.application(port: 0).test(.live) { google in
            let certs = "http://127.0.0.1:\(try #require(google.port))"
            try await TestEngine.with(configure: { configuration in
                configuration.googleManagedAccounts = [
                    GoogleManagedAccount(email: Self.driverAccount, role: .driverSDKUser)
                ]
                configuration.googleCertsURL = certs
                configuration.jwksMinimumRefreshInterval = interval
            }) { client in
                try await body(client, standIn)
            }
        }
    }

    /// A driver token for vehicle `v1`, signed by the stand-in's current key of the account
    /// (as IAM would), with its `kid` or without.
    func driverToken(_ standIn: GoogleStandIn, withKeyID: Bool = true) async throws -> String {
        let key = try await standIn.accounts.currentKey(of: Self.driverAccount)
        let signer = ServiceAccountKey(
            projectID: TestKeys.project, privateKeyID: key.id, clientEmail: Self.driverAccount,
            privateKey: key.privateKey)
        var header = Forge.header(for: signer)
        if !withKeyID { header["kid"] = nil }
        return Forge.token(header: header, payload: Forge.driverPayload(for: signer), signedBy: signer)
    }

    func getVehicle(_ client: TestClient, token: String) async throws -> TestResponse {
        try await client.send(.GET, "\(Fixtures.provider)/vehicles/v1", token: token)
    }

    @Test("a JWKS URL beside Google-managed accounts: both are fetched from")
    func jwksAndGoogleAccountsTogether() {
        let configuration = LocalFleetEngineConfiguration(
            projectID: TestKeys.project, jwksURL: "http://127.0.0.1:1/jwks.json",
            googleManagedAccounts: [GoogleManagedAccount(email: Self.driverAccount, role: .driverSDKUser)],
            googleCertsURL: "http://127.0.0.1:2")
        #expect(
            configuration.trustedKeySources.map(\.url) == [
                "http://127.0.0.1:1/jwks.json",
                "http://127.0.0.1:2/service_accounts/v1/metadata/jwk/\(Self.driverAccount)",
            ])
    }

    @Test("a JWKS URL that never answers delays neither the start nor the Google-managed account's tokens")
    func silentSourceDelaysNoOtherAccount() async throws {
        let publisher = JWKSRefreshTests.Publisher()
        publisher.answer.withLock { $0 = .silence }
        let standIn = GoogleStandIn(serviceAccounts: [Self.driverAccount])
        _ = try await standIn.accounts.publishedKeys(of: Self.driverAccount)
        try await JWKSRefreshTests.withJWKSServer(publisher) { jwksURL in
            try await standIn.application(port: 0).test(.live) { google in
                let certs = "http://127.0.0.1:\(try #require(google.port))"
                try await TestEngine.with(configure: { configuration in
                    configuration.jwksURL = jwksURL
                    configuration.googleManagedAccounts = [
                        GoogleManagedAccount(email: Self.driverAccount, role: .driverSDKUser)
                    ]
                    configuration.googleCertsURL = certs
                    // Given up after 30 s (not 5): a machine busy with other suites may take
                    // seconds to answer the token, but never the 30 s of waiting for the source.
                    configuration.jwksFetchTimeout = .seconds(30)
                }) { client in
                    let answer = try await getVehicle(client, token: try await driverToken(standIn))
                    #expect(answer.status == 404, "the Google-managed account's token is accepted: \(answer)")
                    // The JWKS URL holds its fetch until the test ends and the engine gives up on
                    // it after 30 s: the token was answered before that, so neither the start nor
                    // the token waited for the silent source.
                    let heldSince = try #require(publisher.firstFetch.withLock { $0 }, "the JWKS URL was fetched")
                    #expect(ContinuousClock.now - heldSince < .seconds(30), "the token waited for the silent JWKS URL")
                }
            }
        }
    }

    @Test("a token of the account is accepted, with its kid and without")
    func accountTokensAreAccepted() async throws {
        try await withEngine { client, standIn in
            for withKeyID in [true, false] {
                let response = try await getVehicle(client, token: try await driverToken(standIn, withKeyID: withKeyID))
                #expect(response.status == 404, "authenticated, then no such vehicle: \(response)")
            }
        }
    }

    @Test("through a key rotation, tokens of the old key and of the new one are all accepted: no refusal")
    func keyRotationRefusesNothing() async throws {
        try await withEngine { client, standIn in
            let before = try await driverToken(standIn)
            #expect(try await getVehicle(client, token: before).status == 404)
            try await standIn.accounts.rotateKey(of: Self.driverAccount)
            let after = try await driverToken(standIn)
            let afterWithoutKeyID = try await driverToken(standIn, withKeyID: false)
            for token in [after, before, afterWithoutKeyID, after] {
                #expect(try await getVehicle(client, token: token).status == 404)
            }
        }
    }

    @Test(
        "while Google's key endpoint is down the keys at hand keep working, a new key is refused without a hang, and it is accepted once the endpoint is back"
    )
    func keyEndpointDown() async throws {
        let interval = Duration.milliseconds(300)
        try await withEngine(interval: interval) { client, standIn in
            let before = try await driverToken(standIn)
            #expect(try await getVehicle(client, token: before).status == 404)
            await standIn.accounts.setPublicKeysDown(true)
            // Two rotations: the key current now was not yet published when the engine fetched.
            try await standIn.accounts.rotateKey(of: Self.driverAccount)
            try await standIn.accounts.rotateKey(of: Self.driverAccount)
            let after = try await driverToken(standIn)
            try await Task.sleep(for: interval)
            let start = ContinuousClock.now
            #expect(try await getVehicle(client, token: after).status == 401)
            #expect(ContinuousClock.now - start < .seconds(30), "bounded by the fetch timeout, not a hang")
            #expect(try await getVehicle(client, token: before).status == 404, "the cached key still works")
            await standIn.accounts.setPublicKeysDown(false)
            try await Task.sleep(for: interval)
            #expect(try await getVehicle(client, token: after).status == 404, "fetched once the endpoint is back")
        }
    }

    @Test("a stranger's key under the account's name is refused, with or without kid")
    func strangersKeyIsRefused() async throws {
        try await withEngine { client, _ in
            let stranger = try ServiceAccountKey.generate(projectID: "elsewhere", role: .driverSDKUser)
            let impostor = ServiceAccountKey(
                projectID: TestKeys.project, privateKeyID: stranger.privateKeyID, clientEmail: Self.driverAccount,
                privateKey: stranger.privateKey)
            for withKeyID in [true, false] {
                var header = Forge.header(for: impostor)
                if !withKeyID { header["kid"] = nil }
                let token = Forge.token(header: header, payload: Forge.driverPayload(for: impostor), signedBy: impostor)
                let response = try await getVehicle(client, token: token)
                #expect(response.status == 401, "\(response)")
            }
        }
    }

    @Test("a token with a made-up key id fetches the keys of the account it names, not those of every trusted account")
    func madeUpKeyIDFetchesOnlyItsAccount() async throws {
        let consumerAccount = "fe-consumer@\(TestKeys.project).iam.gserviceaccount.com"
        let standIn = GoogleStandIn(serviceAccounts: [Self.driverAccount, consumerAccount])
        for account in [Self.driverAccount, consumerAccount] {
            _ = try await standIn.accounts.publishedKeys(of: account)
        }
        try await standIn.application(port: 0).test(.live) { google in
            let certs = "http://127.0.0.1:\(try #require(google.port))"
            try await TestEngine.with(configure: { configuration in
                configuration.googleManagedAccounts = [
                    GoogleManagedAccount(email: Self.driverAccount, role: .driverSDKUser),
                    GoogleManagedAccount(email: consumerAccount, role: .consumerSDKUser),
                ]
                configuration.googleCertsURL = certs
                configuration.jwksMinimumRefreshInterval = .milliseconds(100)
            }) { client in
                // Both accounts' keys are at hand, and the interval since their first fetch is over.
                #expect(try await getVehicle(client, token: try await driverToken(standIn)).status == 404)
                try await Task.sleep(for: .milliseconds(300))
                let key = try await standIn.accounts.currentKey(of: Self.driverAccount)
                let signer = ServiceAccountKey(
                    projectID: TestKeys.project, privateKeyID: key.id, clientEmail: Self.driverAccount,
                    privateKey: key.privateKey)
                var header = Forge.header(for: signer)
                header["kid"] = "made-up"
                let before = await standIn.accounts.calls.publicKeys
                let forged = try await getVehicle(
                    client,
                    token: Forge.token(header: header, payload: Forge.driverPayload(for: signer), signedBy: signer))
                #expect(forged.status == 401, "\(forged)")
                let fetches = await standIn.accounts.calls.publicKeys - before
                #expect(fetches == 1, "\(fetches) key fetches for one account's made-up key id")
            }
        }
    }

    /// Requests with made-up key ids share the fetch the interval allows, or are refused at once:
    /// two floods 2 s apart within one 60 s interval cost at most one fetch of the account's
    /// keys, and no refusal waits for the next one (which would take most of a minute).
    @Test(
        "a flood of made-up key ids costs at most one fetch of the account's keys per interval, and is refused without waiting"
    )
    func madeUpKeyIDsDoNotMultiplyFetches() async throws {
        try await withEngine(interval: .seconds(60)) { client, standIn in
            let honest = try await driverToken(standIn)
            #expect(try await getVehicle(client, token: honest).status == 404, "the account's keys are at hand")
            let key = try await standIn.accounts.currentKey(of: Self.driverAccount)
            let signer = ServiceAccountKey(
                projectID: TestKeys.project, privateKeyID: key.id, clientEmail: Self.driverAccount,
                privateKey: key.privateKey)
            let before = await standIn.accounts.calls.publicKeys
            var slowest = Duration.zero
            for flood in 0..<2 {
                if flood > 0 { try await Task.sleep(for: .seconds(2)) }
                let times = try await withThrowingTaskGroup(of: Duration.self) { group in
                    for index in 0..<20 {
                        group.addTask {
                            var header = Forge.header(for: signer)
                            header["kid"] = "made-up-\(flood)-\(index)"
                            let token = Forge.token(
                                header: header, payload: Forge.driverPayload(for: signer), signedBy: signer)
                            let start = ContinuousClock.now
                            let status = try await getVehicle(client, token: token).status
                            #expect(status == 401)
                            return ContinuousClock.now - start
                        }
                    }
                    return try await group.reduce(into: [Duration]()) { $0.append($1) }
                }
                slowest = max(slowest, times.max() ?? .zero)
            }
            let fetches = await standIn.accounts.calls.publicKeys - before
            #expect(fetches <= 1, "\(fetches) fetches within one interval")
            // Waiting for the next fetch would take most of the minute; half of it holds on a busy machine.
            #expect(slowest < .seconds(30), "the slowest refusal took \(slowest)")
            #expect(try await getVehicle(client, token: honest).status == 404, "the honest key kept working")
        }
    }
}
