import Foundation

/// Reads a JWT's `exp` claim without verifying its signature: enough for a client to know when
/// to refresh a token it was handed by a server it trusts, never enough to trust the token.
enum UnverifiedJWT {
    private struct Claims: Decodable {
        let exp: Double?
    }

    /// The token's `exp` claim, or `nil` when the token is not a JWT or has no numeric `exp`.
    static func expiration(of token: String) -> Date? {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3,
            let payload = decodeBase64URL(segments[1]),
            let exp = try? JSONDecoder().decode(Claims.self, from: payload).exp,
            exp.isFinite
        else { return nil }
        return Date(timeIntervalSince1970: exp)
    }

    /// Decodes unpadded base64url text.
    private static func decodeBase64URL(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
