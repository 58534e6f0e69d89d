import FleetAuthCodecs
import Foundation

/// Reads a JWT's `iat` and `exp` claims without verifying its signature: enough for a client to
/// know when to refresh a token it was handed by a server it trusts, never enough to trust the
/// token.
enum UnverifiedJWT {
    /// The times a token states, on the clock of the server that minted it.
    struct Times: Decodable, Equatable {
        /// When it was minted (`iat`).
        var issuedAt: Date?
        /// When it stops being accepted (`exp`).
        var expiresAt: Date?

        private enum CodingKeys: String, CodingKey {
            case iat, exp
        }

        init(issuedAt: Date? = nil, expiresAt: Date? = nil) {
            self.issuedAt = issuedAt
            self.expiresAt = expiresAt
        }

        init(from decoder: any Decoder) throws {
            let claims = try decoder.container(keyedBy: CodingKeys.self)
            issuedAt = Self.date(try? claims.decodeIfPresent(Double.self, forKey: .iat))
            expiresAt = Self.date(try? claims.decodeIfPresent(Double.self, forKey: .exp))
        }

        private static func date(_ seconds: Double??) -> Date? {
            guard let seconds = seconds ?? nil, seconds.isFinite else { return nil }
            return Date(timeIntervalSince1970: seconds)
        }
    }

    /// The token's numeric `iat` and `exp` claims; both `nil` when the token is not a compact
    /// JWT (three segments of unpadded base64url, as RFC 7515 writes them and Fleet Engine reads
    /// them).
    static func times(of token: String) -> Times {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3,
            let payload = Base64URL.decode(segments[1]),
            let times = try? JSONDecoder().decode(Times.self, from: payload)
        else { return Times() }
        return times
    }
}
