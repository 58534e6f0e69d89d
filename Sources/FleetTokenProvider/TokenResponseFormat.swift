import Foundation

/// Where a token server's JSON answer keeps the token and its expiry.
///
/// The default reads `{"token": "…", "expiresAt": <epoch seconds>, "expiresInSeconds": <n>}`,
/// the shape FleetAuth's own token server sends; the keys and conventions can be changed for
/// other servers.
public struct TokenResponseFormat: Sendable {
    /// How a number in the response states an expiry; all three are found in the wild.
    public enum ExpiryConvention: Sendable {
        /// Absolute, in seconds since 1970.
        case epochSeconds
        /// Absolute, in milliseconds since 1970.
        case epochMilliseconds
        /// Relative, in seconds from when the request was sent.
        case secondsFromNow
    }

    /// A response key that states an expiry, and how.
    public struct ExpiryField: Sendable {
        /// The JSON key.
        public var key: String
        /// How its number is to be read.
        public var convention: ExpiryConvention

        /// Names a key holding an expiry in the given convention.
        public init(key: String, convention: ExpiryConvention) {
            self.key = key
            self.convention = convention
        }
    }

    /// FleetAuth's token server: `token`, `expiresAt` (epoch seconds), `expiresInSeconds`.
    public static let standard = TokenResponseFormat()

    /// The key of the token.
    public var tokenKey: String
    /// The keys that may state an expiry; all that are present are read and the earliest wins.
    public var expiryFields: [ExpiryField]

    /// Creates a format; the defaults are those of ``standard``.
    public init(
        tokenKey: String = "token",
        expiryFields: [ExpiryField] = [
            ExpiryField(key: "expiresAt", convention: .epochSeconds),
            ExpiryField(key: "expiresInSeconds", convention: .secondsFromNow),
        ]
    ) {
        self.tokenKey = tokenKey
        self.expiryFields = expiryFields
    }

    /// Reads the token and its stated expiry from a response body.
    ///
    /// - Throws: ``TokenProviderError/malformedResponse`` when the body is not a JSON object or
    ///   a value has the wrong type, ``TokenProviderError/missingData`` when there is no token.
    func decode(_ body: Data) throws(TokenProviderError) -> FetchedToken {
        guard let object = try? JSONDecoder().decode([String: JSONScalar].self, from: body) else {
            throw .malformedResponse
        }
        let token: String
        switch object[tokenKey] {
        case .string(let value) where !value.isEmpty: token = value
        case nil, .null, .string: throw .missingData
        case .number, .other: throw .malformedResponse
        }
        var fetched = FetchedToken(token: token)
        for field in expiryFields {
            guard let number = try Self.number(object[field.key]) else { continue }
            switch field.convention {
            case .epochSeconds:
                fetched.expiresAt = earliest(fetched.expiresAt, Date(timeIntervalSince1970: number))
            case .epochMilliseconds:
                fetched.expiresAt = earliest(fetched.expiresAt, Date(timeIntervalSince1970: number / 1000))
            case .secondsFromNow:
                fetched.expiresIn = earliest(fetched.expiresIn, .seconds(number))
            }
        }
        return fetched
    }

    /// The number an expiry value holds (numeric strings too), `nil` when there is none.
    private static func number(_ value: JSONScalar?) throws(TokenProviderError) -> Double? {
        switch value {
        case nil, .null: return nil
        case .number(let number) where number.isFinite: return number
        case .string(let text): if let number = Double(text), number.isFinite { return number }
        case .number, .other: break
        }
        throw .malformedResponse
    }
}

private func earliest<Value: Comparable>(_ current: Value?, _ candidate: Value) -> Value {
    current.map { min($0, candidate) } ?? candidate
}

/// One value of a JSON object, as much of it as a token response needs.
private enum JSONScalar: Decodable {
    case string(String)
    case number(Double)
    case null
    case other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else {
            self = .other
        }
    }
}
