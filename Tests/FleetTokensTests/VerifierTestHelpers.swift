import TestSupport

@testable import FleetTokens

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
