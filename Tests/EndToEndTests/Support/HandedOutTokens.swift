import FleetAuthLocking
import FleetTokenProvider
import Foundation

/// Stands between an app's client and its token provider and notes, for every token handed
/// out, when that was and when the token says it expires: a test can then check that no token
/// was handed out after its expiry.
final class HandedOutTokens: AuthorizationTokenProvider {
    /// One token handed out.
    struct HandOut: Sendable {
        let at: Date
        /// The token's `exp`, or `nil` when it states none.
        let expiresAt: Date?
    }

    private let base: any AuthorizationTokenProvider
    private let handOuts = Locked<[HandOut]>([])

    init(_ base: any AuthorizationTokenProvider) {
        self.base = base
    }

    /// Every token handed out so far, in order.
    var current: [HandOut] { handOuts.withLock { $0 } }

    func token(for context: AuthorizationContext) async throws -> String {
        let token = try await base.token(for: context)
        let handOut = HandOut(at: Date(), expiresAt: Self.expiry(of: token))
        handOuts.withLock { $0.append(handOut) }
        return token
    }

    func invalidate(_ context: AuthorizationContext) async {
        await base.invalidate(context)
    }

    /// The `exp` claim of a JWT, read without checking anything else.
    static func expiry(of token: String) -> Date? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        guard let json = Data(base64Encoded: payload),
            let claims = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
            let exp = claims["exp"] as? NSNumber
        else { return nil }
        return Date(timeIntervalSince1970: exp.doubleValue)
    }
}
