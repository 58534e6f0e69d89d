import FleetTokens
import ServerHTTP

/// The token of `Authorization: Bearer <JWT>` (an HTTP header, or gRPC metadata), as a
/// ``TokenRefusal`` when there is none to check.
enum BearerToken {
    /// The JWT of a request whose `Authorization` values are `values`; refused when there is no
    /// value, more than one, a scheme other than `Bearer`, or nothing after it.
    static func extract(from values: [String]) throws(TokenRefusal) -> String {
        switch BearerCredentials.read(values) {
        case .token(let token): return token
        case .missing: throw .missing
        case .several(let count): throw .malformed("the request has \(count) Authorization headers; send one")
        case .otherScheme: throw .malformed("the Authorization header must be 'Bearer <JWT>'")
        }
    }
}
