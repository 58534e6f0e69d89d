import Foundation

/// The token payload as the verifier reads it: every claim optional so that a missing one gets
/// its own clear refusal, `aud` as a string or an array (RFC 7519 allows both), NumericDates
/// kept as whole seconds. Read with ``JSONCursor``, taking only the claims Fleet Engine uses.
struct ClaimsPayload {
    var iss: String?
    var sub: String?
    var audiences: [String]?
    var iat: Int64?
    var exp: Int64?
    var authorization: AuthorizationClaims?

    /// Reads the payload JSON. Not JSON, or not an object: `.malformed`; a claim of the wrong
    /// type: `.malformedClaims` naming the claim (never its value).
    init(json: Data) throws(TokenRefusal) {
        var payload = ClaimsPayload()
        var field = ""
        do throws(JSONReadError) {
            try JSONCursor.read(json) { (cursor) throws(JSONReadError) in
                try cursor.readDocumentObject { (cursor, key) throws(JSONReadError) in
                    field = key
                    switch key {
                    case "iss": payload.iss = try cursor.readOptionalString()
                    case "sub": payload.sub = try cursor.readOptionalString()
                    case "aud": payload.audiences = try Self.readAudiences(&cursor)
                    case "iat": payload.iat = try Self.readNumericDate(&cursor)
                    case "exp": payload.exp = try Self.readNumericDate(&cursor)
                    case "authorization":
                        payload.authorization = cursor.readNull() ? nil : try Self.readAuthorization(&cursor) { field = "authorization.\($0)" }
                    default: try cursor.skipValue()
                    }
                }
            }
        } catch {
            throw Self.refusal(for: error, field: field, part: "payload")
        }
        self = payload
    }

    private init() {}

    /// The refusal for a read error at `field` ("" before any member) of `part`.
    static func refusal(for error: JSONReadError, field: String, part: String) -> TokenRefusal {
        switch error {
        case .syntax(let problem):
            return .malformed("\(part) is not valid JSON: \(problem)")
        case .wrongType where field.isEmpty:
            return .malformed("\(part) is not a JSON object")
        case .wrongType(let expected):
            return part == "payload" ? .malformedClaims("'\(field)' must be \(expected)") : .malformed("\(part) '\(field)' must be \(expected)")
        }
    }

    private static func readAudiences(_ cursor: inout JSONCursor) throws(JSONReadError) -> [String]? {
        if cursor.readNull() { return nil }
        if cursor.nextIsString() { return [try cursor.readString()] }
        do {
            return try cursor.readStringArray()
        } catch .wrongType {
            throw .wrongType(expected: "a string or an array of strings")
        }
    }

    /// A NumericDate (RFC 7519): seconds since the epoch, possibly fractional, kept whole.
    private static func readNumericDate(_ cursor: inout JSONCursor) throws(JSONReadError) -> Int64? {
        if cursor.readNull() { return nil }
        let value = try cursor.readNumber()
        // Beyond ±10^15 s (30 million years) a date is nonsense, and Int64(_:) would trap.
        guard value.isFinite, abs(value) < 1e15 else { throw .wrongType(expected: "a date in epoch seconds") }
        return Int64(value.rounded(.down))
    }

    private static func readAuthorization(
        _ cursor: inout JSONCursor,
        entering: (String) -> Void
    ) throws(JSONReadError) -> AuthorizationClaims {
        var claims = AuthorizationClaims()
        try cursor.readObject { (cursor, key) throws(JSONReadError) in
            entering(key)
            switch key {
            case AuthorizationClaims.CodingKeys.vehicleID.rawValue: claims.vehicleID = try cursor.readOptionalString()
            case AuthorizationClaims.CodingKeys.tripID.rawValue: claims.tripID = try cursor.readOptionalString()
            case AuthorizationClaims.CodingKeys.deliveryVehicleID.rawValue: claims.deliveryVehicleID = try cursor.readOptionalString()
            case AuthorizationClaims.CodingKeys.taskID.rawValue: claims.taskID = try cursor.readOptionalString()
            case AuthorizationClaims.CodingKeys.trackingID.rawValue: claims.trackingID = try cursor.readOptionalString()
            case AuthorizationClaims.CodingKeys.taskIDs.rawValue: claims.taskIDs = cursor.readNull() ? nil : try cursor.readStringArray()
            default: try cursor.skipValue()
            }
        }
        return claims
    }
}

extension JOSEHeader {
    /// Reads a token header: `alg`, `typ` and `kid` as strings (or absent); other members are
    /// skipped. Anything else is `.malformed`.
    init(json: Data) throws(TokenRefusal) {
        var header = JOSEHeader(algorithm: nil, type: nil, keyID: nil)
        var field = ""
        do throws(JSONReadError) {
            try JSONCursor.read(json) { (cursor) throws(JSONReadError) in
                try cursor.readDocumentObject { (cursor, key) throws(JSONReadError) in
                    field = key
                    switch key {
                    case CodingKeys.algorithm.rawValue: header.algorithm = try cursor.readOptionalString()
                    case CodingKeys.type.rawValue: header.type = try cursor.readOptionalString()
                    case CodingKeys.keyID.rawValue: header.keyID = try cursor.readOptionalString()
                    default: try cursor.skipValue()
                    }
                }
            }
        } catch {
            throw ClaimsPayload.refusal(for: error, field: field, part: "header")
        }
        self = header
    }
}
