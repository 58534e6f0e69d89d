import Foundation

/// Signs Fleet Engine tokens as one service account: with its key file (``TokenMinter``), or
/// through Google's IAM without any key file (``IAMSigner``).
///
/// The claims are built by the caller (see ``FleetEngineClaims/init(kind:account:issuedAt:lifetime:audience:)``);
/// a signer only signs them, as the account whose email they carry as `iss` and `sub`.
public protocol FleetTokenSigner: Sendable {
    /// The email of the account that signs; tokens carry it as `iss` and `sub`.
    var accountEmail: String { get }

    /// The `aud` of the tokens it mints; Fleet Engine's unless the signer says otherwise.
    var audience: String { get }

    /// Signs `claims` and returns the compact token (`header.payload.signature`).
    func sign(_ claims: FleetEngineClaims) async throws -> String
}

extension FleetTokenSigner {
    /// Fleet Engine's audience.
    public var audience: String { FleetEngineClaims.fleetEngineAudience }

    /// Mints a token of `kind` for this signer's account, valid from `now` for `lifetime`
    /// (for a ``TokenMinter``, its synchronous `mint(_:lifetime:)` does the same on its clock).
    ///
    /// - Throws: ``TokenMintError`` for a kind or lifetime Fleet Engine would refuse, else
    ///   whatever the signer throws.
    public func mint(_ kind: TokenKind, lifetime: Duration, at now: Date) async throws -> MintedToken {
        let claims = try FleetEngineClaims(
            kind: kind,
            account: accountEmail,
            issuedAt: Int64(now.timeIntervalSince1970.rounded(.down)),
            lifetime: lifetime,
            audience: audience
        )
        return MintedToken(token: try await sign(claims), claims: claims)
    }
}

extension FleetEngineClaims {
    /// The claims of a token of `kind` that `account` signs at `issuedAt` (epoch seconds) for
    /// `lifetime`.
    ///
    /// - Throws: ``TokenMintError/invalidClaims(_:)`` for a kind Fleet Engine would refuse (a
    ///   wildcard in a client token, a bad id), ``TokenMintError/invalidLifetime(seconds:)`` for a
    ///   lifetime that is not 1 s to 3600 s in whole seconds.
    public init(
        kind: TokenKind,
        account: String,
        issuedAt: Int64,
        lifetime: Duration,
        audience: String = FleetEngineClaims.fleetEngineAudience
    ) throws(TokenMintError) {
        if let problem = kind.problem { throw .invalidClaims(problem) }
        let seconds = try Self.wholeSeconds(of: lifetime)
        self.init(
            issuer: account,
            subject: account,
            audience: audience,
            issuedAt: issuedAt,
            expiresAt: issuedAt + seconds,
            authorization: kind.authorizationClaims
        )
    }

    /// `lifetime` in whole seconds, when it is 1 s to ``maximumLifetime``.
    static func wholeSeconds(of lifetime: Duration) throws(TokenMintError) -> Int64 {
        let seconds = lifetime.components.seconds
        guard seconds >= 1, seconds <= maximumLifetime, lifetime <= .seconds(maximumLifetime) else {
            throw .invalidLifetime(seconds: seconds)
        }
        return seconds
    }
}
