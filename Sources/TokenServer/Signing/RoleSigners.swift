import FleetAuthServerHTTP
import FleetTokens
import Foundation
import Logging

/// Signs the token server's tokens: for each account role, with its key file or through IAM as
/// its configured account, reusing a token while more than half its life is left when that is
/// on.
struct RoleSigners: Sendable {
    private enum Signer: Sendable {
        case keyFile(TokenMinter)
        case iam(IAMSigner)

        var accountEmail: String {
            switch self {
            case .keyFile(let minter): minter.accountEmail
            case .iam(let signer): signer.accountEmail
            }
        }
    }

    private let signers: [AccountRole: Signer]
    /// The runtime account's access tokens, when some role signs through IAM.
    private let credentials: MetadataServerCredentials?
    private let reuse: TokenReuse?
    private let lifetime: Duration
    private let now: @Sendable () -> Date

    /// Signers for every account role: IAM for the roles `keyless` names, else the role's key
    /// in `keys`.
    ///
    /// - Throws: ``KeyFileError`` when a role has neither; ``GoogleAPIError`` for an unusable
    ///   signer email or metadata host.
    init(keys: SigningKeys, keyless: KeylessSigning, options: TokenServerOptions) throws {
        let credentials =
            keyless.signers.isEmpty ? nil : try MetadataServerCredentials(host: keyless.metadataHost, now: options.now)
        var iam: [AccountRole: Signer] = [:]
        for role in AccountRole.allCases {
            if let email = keyless.signers[role.signingRole], let credentials {
                iam[role] = .iam(
                    try IAMSigner(
                        accountEmail: email, credentials: credentials, iamCredentialsURL: keyless.iamCredentialsURL))
            }
        }
        try self.init(
            iam: iam, keys: keys, credentials: credentials, reuse: keyless.reusesTokens ? TokenReuse() : nil,
            lifetime: options.tokenLifetime,
            now: options.now)
    }

    private init(
        iam: [AccountRole: Signer], keys: SigningKeys, credentials: MetadataServerCredentials?, reuse: TokenReuse?,
        lifetime: Duration,
        now: @escaping @Sendable () -> Date
    ) throws {
        var signers = iam
        for role in AccountRole.allCases where signers[role] == nil {
            guard let key = keys.key(for: role.signingRole) else {
                throw KeyFileError(
                    file: "<signing keys>", problem: "no key file and no --signer for \(role.signingRole.shortName)")
            }
            signers[role] = .keyFile(try TokenMinter(key: key, defaultLifetime: lifetime, now: now))
        }
        self.signers = signers
        self.credentials = credentials
        self.reuse = reuse
        self.signsWithoutWaiting =
            reuse == nil && signers.values.allSatisfy { if case .keyFile = $0 { true } else { false } }
        self.lifetime = lifetime
        self.now = now
    }

    /// These signers with the roles that sign with key files signing with `keys` instead: the
    /// IAM signers, their access token and the tokens kept for reuse stay.
    func signing(with keys: SigningKeys) throws -> RoleSigners {
        try RoleSigners(
            iam: signers.filter { if case .iam = $0.value { true } else { false } }, keys: keys,
            credentials: credentials, reuse: reuse,
            lifetime: lifetime, now: now)
    }

    /// Whether every role signs with a key file and no token is kept for reuse, so that
    /// ``tokenWithoutWaiting(_:for:)`` always signs.
    let signsWithoutWaiting: Bool

    /// A token of `kind` for `role` signed on the calling thread with the role's key file;
    /// `nil` when the role signs through IAM or tokens are reused (both may wait).
    func tokenWithoutWaiting(_ kind: TokenKind, for role: AccountRole) throws -> MintedToken? {
        guard reuse == nil, case .keyFile(let minter)? = signers[role] else { return nil }
        return try minter.mint(kind)
    }

    /// Why the signers cannot sign now, for `/readyz`; `nil` when they can. Key files were
    /// loaded at start; a role signing through IAM needs the runtime account's access token,
    /// which the metadata server gives (kept, and refreshed ahead of its expiry).
    func readinessProblem() async -> String? {
        guard let credentials else { return nil }
        do {
            _ = try await credentials.accessToken()
            return nil
        } catch {
            return "signing: no access token from the metadata server for IAM (\(error))"
        }
    }

    /// A token of `kind` for `role`: one kept for the same account, kind and id while more
    /// than half its life is left, else a new signature.
    ///
    /// - Throws: ``APIError`` 503 when IAM refuses or cannot be reached, with what to fix.
    func token(_ kind: TokenKind, for role: AccountRole, resourceID: String) async throws -> MintedToken {
        if let minted = try tokenWithoutWaiting(kind, for: role) { return minted }
        guard let signer = signers[role] else { throw APIError.internal }
        let key = "\(signer.accountEmail)|\(kind.name)|\(resourceID)"
        let time = now()
        if let reuse, let kept = await reuse.token(for: key, now: Self.epochSeconds(time)) { return kept }
        let minted: MintedToken
        switch signer {
        case .keyFile(let minter):
            minted = try minter.mint(kind)
        case .iam(let signer):
            do {
                minted = try await signer.mint(kind, lifetime: lifetime, at: time)
            } catch let error as GoogleAPIError {
                throw APIError(
                    .unavailable, "signing failed: \(error)", retryAfter: error.isTransient ? .seconds(1) : nil)
            }
        }
        await reuse?.keep(minted, for: key, now: Self.epochSeconds(time))
        return minted
    }

    private static func epochSeconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }
}
