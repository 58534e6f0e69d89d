import FleetAuthLocking
import FleetTokenProvider

/// A provider that always hands out the same token and counts what it is asked: for tokens
/// Fleet Engine refuses whatever happens (forged, expired).
final class CountingTokens: AuthorizationTokenProvider {
    private let fixedToken: String
    private let counts = Locked((handedOut: 0, invalidated: 0))

    init(_ token: String) {
        fixedToken = token
    }

    var handedOut: Int { counts.withLock { $0.handedOut } }
    var invalidated: Int { counts.withLock { $0.invalidated } }

    func token(for context: AuthorizationContext) async throws -> String {
        counts.withLock { $0.handedOut += 1 }
        return fixedToken
    }

    func invalidate(_ context: AuthorizationContext) async {
        counts.withLock { $0.invalidated += 1 }
    }
}
