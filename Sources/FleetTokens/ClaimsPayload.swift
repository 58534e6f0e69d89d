/// The token payload as the verifier reads it: every claim optional so that a missing one
/// gets its own clear refusal, and `aud` as a string or an array (RFC 7519 allows both).
struct ClaimsPayload: Decodable {
    /// `aud` in either of its JSON forms.
    enum Audience: Decodable {
        case one(String)
        case many([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) {
                self = .one(one)
            } else {
                self = .many(try container.decode([String].self))
            }
        }

        var values: [String] {
            switch self {
            case .one(let value): [value]
            case .many(let values): values
            }
        }
    }

    /// A NumericDate (RFC 7519): seconds since the epoch, possibly fractional, kept whole.
    struct NumericDate: Decodable {
        let seconds: Int64

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer().decode(Double.self)
            // Beyond ±10^15 s (30 million years) a date is nonsense, and Int64(_:) would trap.
            guard value.isFinite, abs(value) < 1e15 else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a date"))
            }
            seconds = Int64(value.rounded(.down))
        }
    }

    let iss: String?
    let sub: String?
    let aud: Audience?
    private let issuedAt: NumericDate?
    private let expiresAt: NumericDate?
    let authorization: AuthorizationClaims?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, authorization
        case issuedAt = "iat"
        case expiresAt = "exp"
    }

    /// `iat` in whole seconds.
    var iat: Int64? { issuedAt?.seconds }
    /// `exp` in whole seconds.
    var exp: Int64? { expiresAt?.seconds }
}
