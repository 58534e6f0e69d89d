import FleetTokens

/// Reads the token of `Authorization: Bearer <JWT>` (an HTTP header, or gRPC metadata).
enum BearerToken {
    /// The JWT of a request whose `Authorization` values are `values`; refused when there is no
    /// value, more than one, a scheme other than `Bearer`, or nothing after it.
    static func extract(from values: [String]) throws(TokenRefusal) -> String {
        guard let header = values.first else { throw .missing }
        guard values.count == 1 else { throw .malformed("the request has \(values.count) Authorization headers; send one") }
        let trimmed = header.drop { $0 == " " || $0 == "\t" }
        let scheme = trimmed.prefix { $0 != " " && $0 != "\t" }
        guard scheme.lowercased() == "bearer" else {
            throw .malformed("the Authorization header must be 'Bearer <JWT>'")
        }
        let token = trimmed.dropFirst(scheme.count).trimmingPrefixAndSuffix { $0 == " " || $0 == "\t" }
        guard !token.isEmpty else { throw .missing }
        return String(token)
    }
}

extension Substring {
    /// The substring without leading and trailing characters that satisfy `isPadding`.
    fileprivate func trimmingPrefixAndSuffix(while isPadding: (Character) -> Bool) -> Substring {
        var result = drop(while: isPadding)
        while let last = result.last, isPadding(last) { result = result.dropLast() }
        return result
    }
}
