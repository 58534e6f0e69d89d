import FleetAuthServerHTTP
import FleetTokens

extension BearerCredentials.Reading {
    /// The JWT a request's `Authorization` values hold (an HTTP header, or gRPC metadata);
    /// refused when there is no value, more than one, a scheme other than `Bearer`, or nothing
    /// after it.
    func jwt() throws(TokenRefusal) -> String {
        switch self {
        case .token(let token): return token
        case .missing: throw .missing
        case .several(let count): throw .malformed("the request has \(count) Authorization headers; send one")
        case .otherScheme: throw .malformed("the Authorization header must be 'Bearer <JWT>'")
        }
    }
}
