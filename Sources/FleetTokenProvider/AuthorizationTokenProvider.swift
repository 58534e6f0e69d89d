/// Hands out Fleet Engine tokens for an ``AuthorizationContext``: the Swift counterpart of
/// `GMTDAuthorization` and `GMTCAuthorization`.
///
/// ``CachingTokenProvider`` is the implementation apps use; the protocol lets code that only
/// needs tokens (a Fleet Engine client, a test double) take any provider.
public protocol AuthorizationTokenProvider: Sendable {
    /// A token for `context` that is good for at least the provider's margin.
    func token(for context: AuthorizationContext) async throws -> String

    /// Forgets the token held for `context`, so that the next call fetches a new one; call it
    /// when Fleet Engine answers 401 to a request made with that token.
    func invalidate(_ context: AuthorizationContext) async
}

extension AuthorizationTokenProvider {
    /// Asks for a token and reports it to `completion`, in the shape of
    /// `GMTDAuthorization.fetchToken(with:completion:)` so that a conformance can pass the SDK's
    /// completion handler straight through.
    ///
    /// Safe to call from any thread. `completion` is called exactly once, with either a token
    /// or an error, always from a new task and never synchronously from inside this call, so
    /// a caller holding a lock cannot deadlock on its own completion handler.
    public func fetchToken(
        with context: AuthorizationContext,
        completion: @escaping @Sendable (_ token: String?, _ error: (any Error)?) -> Void
    ) {
        Task {
            do {
                completion(try await token(for: context), nil)
            } catch {
                completion(nil, error)
            }
        }
    }
}
