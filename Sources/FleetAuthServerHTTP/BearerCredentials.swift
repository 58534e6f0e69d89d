import HTTPTypes

/// Reads `Authorization: Bearer <token>` the same way for both servers and both doors (HTTP
/// headers and gRPC metadata): one value, the scheme `Bearer` in any case, the token with the
/// spaces and tabs around it removed.
package enum BearerCredentials {
    /// What a request's `Authorization` values hold.
    package enum Reading: Equatable, Sendable {
        /// The token.
        case token(String)
        /// No value, or `Bearer` with nothing after it.
        case missing
        /// More than one value (how many).
        case several(Int)
        /// A scheme other than `Bearer`.
        case otherScheme
    }

    /// Reads the `Authorization` values of a request.
    package static func read(_ values: some Collection<String>) -> Reading {
        guard let header = values.first else { return .missing }
        guard values.count == 1 else { return .several(values.count) }
        let trimmed = header.drop { $0 == " " || $0 == "\t" }
        let scheme = trimmed.prefix { $0 != " " && $0 != "\t" }
        guard scheme.lowercased() == "bearer" else { return trimmed.isEmpty ? .missing : .otherScheme }
        var token = trimmed.dropFirst(scheme.count).drop { $0 == " " || $0 == "\t" }
        while let last = token.last, last == " " || last == "\t" { token = token.dropLast() }
        return token.isEmpty ? .missing : .token(String(token))
    }

    /// The token of `headers`' `Authorization` bearer credentials, or `nil` when there is none
    /// to check.
    package static func token(in headers: HTTPFields) -> String? {
        guard case .token(let token) = read(headers[values: .authorization]) else { return nil }
        return token
    }
}
