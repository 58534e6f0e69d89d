import Foundation

/// What a token says, decoded without verifying its signature, and what Fleet Engine would
/// object to in it: for people debugging tokens (`fleetauth inspect`).
public struct TokenInspection: Sendable {
    /// The header, as decoded JSON text.
    public let headerJSON: String
    /// The payload, as decoded JSON text.
    public let payloadJSON: String
    /// The decoded header.
    public let header: JOSEHeader
    /// The claims, when the payload has the Fleet Engine shape.
    public let claims: FleetEngineClaims?
    /// Everything Fleet Engine would refuse, or warn about, ignoring the signature.
    public let problems: [String]

    /// Decodes `token`. Throws only when it is not a JWT at all (not three base64url
    /// segments of JSON); everything else is reported in ``problems``.
    public init(token: String, audience: String = FleetEngineClaims.fleetEngineAudience, now: Date = Date())
        throws(TokenRefusal)
    {
        let trimmed = token.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .missing }
        let segments = try CompactToken(trimmed)
        let header = try JOSEHeader(json: segments.header)
        guard (try? JSONSerialization.jsonObject(with: segments.payload)) is [String: Any] else {
            throw .malformed("payload is not a JSON object")
        }
        self.header = header
        self.headerJSON = Self.pretty(segments.header)
        self.payloadJSON = Self.pretty(segments.payload)

        var problems: [String] = []
        let size = trimmed.utf8.count
        if size > TokenVerifier.maximumTokenSize { problems.append(TokenRefusal.oversized(bytes: size).description) }
        if header.algorithm != JOSEHeader.rs256 {
            problems.append(TokenRefusal.unsupportedAlgorithm(header.algorithm).description)
        }
        if header.type != "JWT" { problems.append("header 'typ' should be 'JWT'") }
        do throws(TokenRefusal) {
            let payload = try ClaimsPayload(json: segments.payload)
            let currentTime = Int64(now.timeIntervalSince1970.rounded(.down))
            problems += Self.problems(in: payload, audience: audience, now: currentTime)
            if let iss = payload.iss, let iat = payload.iat, let exp = payload.exp {
                claims = FleetEngineClaims(
                    issuer: iss, subject: payload.sub ?? "", audience: payload.audiences?.first ?? "",
                    issuedAt: iat, expiresAt: exp, authorization: payload.authorization ?? AuthorizationClaims()
                )
            } else {
                claims = nil
            }
        } catch {
            problems.append(error.description)
            claims = nil
        }
        self.problems = problems
    }

    private static func problems(in payload: ClaimsPayload, audience: String, now: Int64) -> [String] {
        var problems: [TokenRefusal?] = []
        if payload.iss == nil { problems.append(.malformedClaims("'iss' is missing")) }
        if payload.iss != payload.sub { problems.append(.issuerSubjectMismatch) }
        problems.append(FleetEngineTokenRules.audienceRefusal(payload.audiences ?? [], expected: audience))
        if let iat = payload.iat, let exp = payload.exp {
            problems.append(FleetEngineTokenRules.lifetimeRefusal(issuedAt: iat, expiresAt: exp))
            problems.append(FleetEngineTokenRules.futureIssueRefusal(issuedAt: iat, now: now))
            problems.append(FleetEngineTokenRules.expiryRefusal(expiresAt: exp, now: now, skew: 0))
        } else {
            problems.append(.malformedClaims("'iat' and 'exp' must both be present"))
        }
        var text = problems.compactMap { $0?.description }
        let authorization = payload.authorization ?? AuthorizationClaims()
        if authorization.isEmpty {
            text.append(
                "the 'authorization' claim names no vehicle, trip, delivery vehicle, task or tracking id: Fleet Engine will deny every call"
            )
        } else if authorization.containsWildcard {
            text.append("carries the wildcard \"*\": a server-side token; never hand it to a driver or consumer app")
        }
        return text
    }

    private static func pretty(_ json: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: json),
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return String(decoding: json, as: UTF8.self) }
        return String(decoding: data, as: UTF8.self)
    }
}
