import Crypto
import CryptoExtras
import Foundation
import Synchronization
@testable import FleetTokens

/// Keys made once per test run (RSA generation is slow), one per role used in tests.
enum TestKeys {
    static let driver = try! ServiceAccountKey.generate(projectID: "test-project", role: .driverSDKUser)
    static let consumer = try! ServiceAccountKey.generate(projectID: "test-project", role: .consumerSDKUser)
    static let server = try! ServiceAccountKey.generate(projectID: "test-project", role: .serviceSuperUser)
    /// A key no verifier in the tests trusts.
    static let stranger = try! ServiceAccountKey.generate(projectID: "other-project", role: .driverSDKUser)
}

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    var epochSeconds: Int64 { Int64(now.timeIntervalSince1970) }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }

    /// The clock as the closure the library takes.
    var function: @Sendable () -> Date { { self.now } }
}

/// Builds tokens by hand, including ones no honest minter would make.
enum Forge {
    static func segment(_ object: [String: Any]) -> String {
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return Base64URL.encode(data)
    }

    static func rs256(_ signingInput: String, with key: ServiceAccountKey) -> String {
        let signature = try! key.privateKey.backing.signature(for: SHA256.hash(data: Data(signingInput.utf8)), padding: .insecurePKCS1v1_5)
        return Base64URL.encode(signature.rawRepresentation)
    }

    /// A token with the given header and payload objects, RS256-signed by `key`.
    static func token(header: [String: Any], payload: [String: Any], signedBy key: ServiceAccountKey) -> String {
        let input = segment(header) + "." + segment(payload)
        return input + "." + rs256(input, with: key)
    }

    /// The header an honest minter would write for `key`.
    static func header(for key: ServiceAccountKey) -> [String: Any] {
        ["alg": "RS256", "typ": "JWT", "kid": key.privateKeyID]
    }

    /// The payload an honest minter would write for a driver token, at `now`.
    static func driverPayload(for key: ServiceAccountKey, now: Int64, vehicleID: Any = "vehicle-1") -> [String: Any] {
        [
            "iss": key.clientEmail, "sub": key.clientEmail, "aud": FleetEngineClaims.fleetEngineAudience,
            "iat": now, "exp": now + 3600, "authorization": ["vehicleid": vehicleID],
        ]
    }
}

extension TokenVerifier {
    /// A verifier trusting the test driver, consumer and server keys with their roles.
    static func forTests(clock: TestClock, skew: Duration = .zero, cacheCapacity: Int = 1000) -> TokenVerifier {
        TokenVerifier(
            trusting: [
                TrustedServiceAccount(key: TestKeys.driver, role: .driverSDKUser),
                TrustedServiceAccount(key: TestKeys.consumer, role: .consumerSDKUser),
                TrustedServiceAccount(key: TestKeys.server, role: .serviceSuperUser),
            ],
            allowedClockSkew: skew,
            cacheCapacity: cacheCapacity,
            now: clock.function
        )
    }
}

/// Runs `body` and returns the refusal it throws, or `nil` if it accepted.
func refusal(_ body: () throws(TokenRefusal) -> VerifiedToken) -> TokenRefusal? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
