import Crypto
import CryptoExtras
import FleetAuthCodecs
import Foundation

/// Signs Fleet Engine tokens (RS256) with one service-account key.
///
/// Header `kid` is the key's `private_key_id`; `iss` and `sub` are its `client_email`;
/// `aud` is Fleet Engine's audience unless overridden; `exp` is at most an hour after `iat`.
public struct TokenMinter: FleetTokenSigner {
    /// The signing key.
    public let key: ServiceAccountKey
    /// The key file's account (`client_email`), which signs.
    public var accountEmail: String { key.clientEmail }
    /// The `aud` claim of every token.
    public let audience: String
    /// The lifetime of a token when ``mint(_:lifetime:)`` is not given one.
    public let defaultLifetime: Duration
    private let now: @Sendable () -> Date
    private let signer: RS256Signer
    private let encodedHeader: String

    /// Creates a minter.
    ///
    /// - Parameters:
    ///   - key: the service-account key that signs.
    ///   - audience: the `aud` claim; Fleet Engine's by default.
    ///   - defaultLifetime: 1 s to 3600 s; 3600 s by default.
    ///   - now: the clock; the system clock by default.
    /// - Throws: ``TokenMintError/invalidLifetime(seconds:)`` for a bad default lifetime,
    ///   ``TokenMintError/signingFailed`` if the signing library refuses the key.
    public init(
        key: ServiceAccountKey,
        audience: String = FleetEngineClaims.fleetEngineAudience,
        defaultLifetime: Duration = .seconds(FleetEngineClaims.maximumLifetime),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(TokenMintError) {
        _ = try FleetEngineClaims.wholeSeconds(of: defaultLifetime)
        guard let signer = RS256Signer(key.privateKey.backing) else { throw .signingFailed }
        self.signer = signer
        self.key = key
        self.audience = audience
        self.defaultLifetime = defaultLifetime
        self.now = now
        let header = JOSEHeader(keyID: key.privateKeyID)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Encoding a struct of strings cannot fail.
        self.encodedHeader = Base64URL.encode((try? encoder.encode(header)) ?? Data())
    }

    /// Mints a token of `kind`, valid from now for `lifetime` (the default lifetime if `nil`).
    public func mint(_ kind: TokenKind, lifetime: Duration? = nil) throws(TokenMintError) -> MintedToken {
        let claims = try FleetEngineClaims(
            kind: kind,
            account: key.clientEmail,
            issuedAt: Int64(now().timeIntervalSince1970.rounded(.down)),
            lifetime: lifetime ?? defaultLifetime,
            audience: audience
        )
        return MintedToken(token: try sign(claims), claims: claims, keyID: key.privateKeyID)
    }

    /// Signs an arbitrary claim set as-is (no lifetime or wildcard checks): for tests and tools
    /// that need tokens Fleet Engine would refuse.
    public func sign(_ claims: FleetEngineClaims) throws(TokenMintError) -> String {
        var signingInput = encodedHeader + "." + Base64URL.encode(claims.jsonBytes)
        let digest = signingInput.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
        guard let signature = signer.signature(for: digest) else { throw .signingFailed }
        return signingInput + "." + Base64URL.encode(signature)
    }
}
