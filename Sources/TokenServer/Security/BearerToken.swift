import Hummingbird

/// Reads `Authorization: Bearer <token>`.
enum BearerToken {
    /// The token of the request's bearer credentials, or `nil` when there are none.
    static func from(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
