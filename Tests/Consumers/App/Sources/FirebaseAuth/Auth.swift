// A stand-in for the part of Firebase Authentication docs/token-server.md uses, with its Swift
// signatures: `Auth.auth().currentUser?.getIDToken()`.

/// The signed-in state of the app.
public final class Auth: @unchecked Sendable {
    private static let shared = Auth()

    /// The app's default Auth instance.
    public static func auth() -> Auth { shared }

    /// The signed-in user, if any.
    public var currentUser: User? { User() }
}

/// A signed-in user.
public final class User: @unchecked Sendable {
    /// The user's ID token, refreshed by the SDK when it is about to expire.
    public func getIDToken() async throws -> String { "header.payload.signature" }
}
