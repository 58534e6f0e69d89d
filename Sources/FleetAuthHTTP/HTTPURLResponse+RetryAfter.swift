import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPURLResponse {
    /// The wait a `Retry-After: <seconds>` header asks for; `nil` without one or when it is not
    /// a whole number of seconds (the HTTP-date form is not honoured; the backoff applies then).
    package var retryAfter: Duration? {
        value(forHTTPHeaderField: "Retry-After")
            .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            .flatMap { $0 >= 0 ? .seconds($0) : nil }
    }
}
