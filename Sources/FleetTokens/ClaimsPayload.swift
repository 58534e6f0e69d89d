import FleetAuthCodecs
import Foundation

/// The token payload as the verifier reads it: every claim optional so that a missing one gets
/// its own clear refusal, `aud` as a string or an array (RFC 7519 allows both), NumericDates
/// kept as whole seconds. Read with ``JSONCursor``, taking only the claims Fleet Engine and
/// OpenID Connect ID tokens use.
package struct ClaimsPayload {
    package var iss: String?
    package var sub: String?
    package var audiences: [String]?
    package var iat: Int64?
    package var exp: Int64?
    /// `nbf`, which Fleet Engine ignores and ID token verifiers honour when present.
    package var nbf: Int64?
    package var authorization: AuthorizationClaims?

    /// Reads the payload JSON. Not JSON, or not an object: `.malformed`; a claim of the wrong
    /// type: `.malformedClaims` naming the claim (never its value).
    package init(json: Data) throws(TokenRefusal) {
        var payload = ClaimsPayload()
        try readTokenPart(json, named: "payload") { (cursor, key) throws(JSONReadError) in
            switch key {
            case "iss": payload.iss = try cursor.readOptionalString()
            case "sub": payload.sub = try cursor.readOptionalString()
            case "aud": payload.audiences = try Self.readAudiences(&cursor)
            case "iat": payload.iat = try Self.readNumericDate(&cursor)
            case "exp": payload.exp = try Self.readNumericDate(&cursor)
            case "nbf": payload.nbf = try Self.readNumericDate(&cursor)
            case "authorization": payload.authorization = cursor.readNull() ? nil : try Self.readAuthorization(&cursor)
            default: try cursor.skipValue()
            }
        }
        self = payload
    }

    private init() {}

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
        guard abs(value) < 1e15 else { throw .wrongType(expected: "a date in epoch seconds") }
        return Int64(value.rounded(.down))
    }

    private static func readAuthorization(_ cursor: inout JSONCursor) throws(JSONReadError) -> AuthorizationClaims {
        var claims = AuthorizationClaims()
        try cursor.readObject { (cursor, key) throws(JSONReadError) in
            switch key {
            case AuthorizationClaims.CodingKeys.vehicleID.rawValue: claims.vehicleID = try cursor.readOptionalString()
            case AuthorizationClaims.CodingKeys.tripID.rawValue: claims.tripID = try cursor.readOptionalString()
            case AuthorizationClaims.CodingKeys.deliveryVehicleID.rawValue:
                claims.deliveryVehicleID = try cursor.readOptionalString()
            case AuthorizationClaims.CodingKeys.taskID.rawValue: claims.taskID = try cursor.readOptionalString()
            case AuthorizationClaims.CodingKeys.trackingID.rawValue: claims.trackingID = try cursor.readOptionalString()
            case AuthorizationClaims.CodingKeys.taskIDs.rawValue:
                claims.taskIDs = cursor.readNull() ? nil : try cursor.readStringArray()
            default: try cursor.skipValue()
            }
        }
        return claims
    }
}

extension JOSEHeader {
    /// Reads a token header: `alg`, `typ` and `kid` as strings (or absent); other members are
    /// skipped. Anything else is `.malformed`.
    package init(json: Data) throws(TokenRefusal) {
        var header = JOSEHeader(algorithm: nil, type: nil, keyID: nil)
        try readTokenPart(json, named: "header") { (cursor, key) throws(JSONReadError) in
            switch key {
            case CodingKeys.algorithm.rawValue: header.algorithm = try cursor.readOptionalString()
            case CodingKeys.type.rawValue: header.type = try cursor.readOptionalString()
            case CodingKeys.keyID.rawValue: header.keyID = try cursor.readOptionalString()
            default: try cursor.skipValue()
            }
        }
        self = header
    }
}

/// Reads the JSON object of a token's `part` ("header" or "payload"), handing each member to
/// `member`. Not JSON, or not an object: `.malformed`; a wrongly typed member: for the payload
/// `.malformedClaims`, for the header `.malformed`, naming the member (never its value).
private func readTokenPart(
    _ json: Data,
    named part: String,
    _ member: (inout JSONCursor, String) throws(JSONReadError) -> Void
) throws(TokenRefusal) {
    do throws(JSONReadError) {
        try JSONCursor.read(json) { (cursor) throws(JSONReadError) in try cursor.readDocumentObject(member) }
    } catch {
        switch error {
        case .syntax(let problem):
            throw .malformed("\(part) is not valid JSON: \(problem)")
        case .wrongType(_, let field) where field.isEmpty:
            throw .malformed("\(part) is not a JSON object")
        case .wrongType(let expected, let field):
            throw part == "payload"
                ? .malformedClaims("'\(field)' must be \(expected)")
                : .malformed("\(part) '\(field)' must be \(expected)")
        }
    }
}
