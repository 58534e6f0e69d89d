import FleetAuthServerHTTP
import FleetAuthServerStorage
import FleetTokens
import Logging

/// What a token request asks for (see ``TokenRoute``).
enum TokenRequest: Sendable {
    /// A token scoped to one resource the caller must be assigned to.
    case resource(Resource)
    /// The token of a role assigned to no resource (a fleet reader's, every id `*`), for
    /// accounts of that role.
    case unscoped(AccountRole)

    /// The account roles that may ask.
    var accountRoles: [AccountRole] {
        switch self {
        case .resource(let resource): resource.kind.accountRoles
        case .unscoped(let role): [role]
        }
    }

    /// The resource asked about; `nil` for an unscoped token.
    var resource: Resource? {
        if case .resource(let resource) = self { resource } else { nil }
    }

    /// The kind of token asked for, as its route names it (`driver`, `delivery-driver`, …),
    /// for the record of a request refused before the account was known.
    var routeName: String {
        switch self {
        case .resource(let resource): resource.kind.accountRoles.first?.rawValue ?? resource.kind.rawValue
        case .unscoped(let role): role.rawValue
        }
    }

    /// The token that answers it for an account of `role` (one of ``accountRoles``): a trusted
    /// delivery driver's is a trusted one.
    func tokenKind(for role: AccountRole) -> TokenKind {
        role.tokenKind(id: resource?.id ?? "")
    }
}

/// A token request refused: the answer, and what the record keeps of why.
struct TokenRequestRefused: Error {
    /// The answer.
    let answer: APIError
    /// Why, as the metrics and the record name it.
    let reason: RefusalReason
    /// The caller's account, when it was known.
    let grant: SessionGrant?
}

/// Who asks for a token: the credential, with a session token hashed once for every use of
/// the request (the store's lookup, the request limit, the record), and the client's address.
private struct Caller: Sendable {
    /// A credential as the checks use it.
    enum Credential: Sendable {
        /// A session, by the SHA-256 the store keeps of its token.
        case session(tokenHash: String)
        /// An OpenID Connect ID token.
        case idToken(String)
    }

    let credential: Credential?
    let address: String?

    init(_ credential: TokenRequestCredential?, address: String?) {
        switch credential {
        case .session(let token): self.credential = .session(tokenHash: SecretToken.hash(token))
        case .idToken(let token): self.credential = .idToken(token)
        case nil: self.credential = nil
        }
        self.address = address
    }

    /// The record's id of the caller's session (``TokenRecord/sessionID(ofHash:)``), if it has one.
    var sessionID: String? {
        guard case .session(let tokenHash) = credential else { return nil }
        return TokenRecord.sessionID(ofHash: tokenHash)
    }
}

/// A token signed, and the record to write before it is handed out.
private struct SignedToken: Sendable {
    let minted: MintedToken
    /// Its kind's name (``FleetTokens/TokenKind/name``).
    let kind: String
    /// The resource it is scoped to; `nil` for an unscoped token.
    let resource: Resource?
    /// Its record; `nil` when the record is off.
    let record: TokenRecord?
    let grant: SessionGrant
    /// When its request began.
    let start: ContinuousClock.Instant
}

/// Decides whether a caller — by session, or by an ID token of a linked identity — may have
/// a token, signs it, and records the request (``TokenRecorder``).
struct TokenIssuer: Sendable {
    let store: TokenServerStore
    let options: TokenServerOptions
    let metrics: TokenServerMetrics
    let logger: Logger
    /// The signing keys and their signers, as rotations change them.
    private let keyRing: SigningKeyRing
    /// Checks ID tokens; `nil` when no OpenID Connect issuer is trusted.
    private let idTokens: IDTokenVerifier?
    /// Token requests per session per minute.
    private let limit: TokenRequestLimit
    /// The record of token requests.
    let recorder: TokenRecorder

    init(
        store: TokenServerStore, keyRing: SigningKeyRing, options: TokenServerOptions, metrics: TokenServerMetrics,
        logger: Logger
    ) {
        self.store = store
        self.options = options
        self.metrics = metrics
        self.logger = logger
        self.keyRing = keyRing
        self.idTokens =
            options.oidc.isEnabled ? IDTokenVerifier(settings: options.oidc, now: options.now, logger: logger) : nil
        self.limit = TokenRequestLimit(perMinute: options.tokenRequestsPerMinute, now: options.now)
        self.recorder = TokenRecorder(
            settings: options.record, store: store, metrics: metrics, logger: logger, now: options.now)
    }

    /// Why tokens cannot be signed now, for `/readyz`; `nil` when they can.
    func signingProblem() async -> String? {
        await keyRing.signers.readinessProblem()
    }

    /// Checks the credential (401; 403 for an ID token no account is linked to; 503 when the
    /// ID token's issuer's keys cannot be had), the session's request limit (429), then the
    /// request's id (403 for `*` or any id that is not plain), role and assignment (403), then
    /// signs, and hands the token out once its record is written. Every refusal is recorded.
    func issue(_ request: TokenRequest, credential: TokenRequestCredential?, client: String?) async throws
        -> MintedToken
    {
        let caller = Caller(credential, address: client)
        do {
            let signed = try await sign(request, by: caller)
            try await handOut(signed)
            return signed.minted
        } catch {
            throw recordRefusal(error, of: request, by: caller)
        }
    }

    /// ``issue(_:credential:client:)`` signed on the calling thread, when nothing on the way
    /// waits: a session read straight from SQLite, a key file that signs. `nil` when something
    /// would wait (PostgreSQL, a locked SQLite file, an ID token, IAM, reused tokens): then
    /// ``issue(_:credential:client:)``. With the record on, `recording` writes the token's
    /// record and tells its handler when the token may be handed out, or why not.
    func issueWithoutWaiting(
        _ request: TokenRequest, credential: TokenRequestCredential?, client: String?
    ) throws -> (minted: MintedToken, recording: TokenRecording?)? {
        let caller = Caller(credential, address: client)
        let signed: SignedToken
        do {
            guard let done = try signWithoutWaiting(request, by: caller) else { return nil }
            signed = done
        } catch {
            throw recordRefusal(error, of: request, by: caller)
        }
        guard signed.record != nil else {
            counted(signed)
            return (signed.minted, nil)
        }
        return (
            signed.minted,
            { written in
                handOut(signed) { outcome in
                    written(outcome.mapError { recordRefusal($0, of: request, by: caller) })
                }
            }
        )
    }

    /// Writes a token's record, then calls its handler: with nothing once the token may be
    /// handed out, or with the refusal (already recorded) that is the answer instead.
    typealias TokenRecording = @Sendable (_ written: @escaping @Sendable (Result<Void, any Error>) -> Void) -> Void

    /// Writes the token's record (503, as a refusal, when the record's buffer is full), then
    /// counts and logs the token as handed out.
    private func handOut(_ signed: SignedToken) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            handOut(signed) { done.resume(with: $0) }
        }
    }

    /// ``handOut(_:)`` that tells `handedOut` once done, on the record writer's thread.
    private func handOut(_ signed: SignedToken, handedOut: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        guard let record = signed.record else {
            counted(signed)
            return handedOut(.success(()))
        }
        recorder.issued(record) { written in
            switch written {
            case .success:
                counted(signed)
                handedOut(.success(()))
            case .failure(let error as APIError):
                handedOut(.failure(refusal(.recordUnavailable, error, signed.grant)))
            case .failure(let error):
                handedOut(.failure(error))
            }
        }
    }

    /// Counts and logs a token handed out.
    private func counted(_ signed: SignedToken) {
        metrics.tokenIssued(kind: signed.kind, elapsed: ContinuousClock.now - signed.start)
        logger.debug(
            "token issued",
            metadata: [
                "username": "\(signed.grant.username)", "kind": "\(signed.kind)",
                "resource": "\(signed.resource.map(\.description) ?? "*")",
            ])
    }

    /// The checks and the signature of ``issue(_:credential:client:)``.
    private func sign(_ request: TokenRequest, by caller: Caller) async throws -> SignedToken {
        let start = ContinuousClock.now
        let grant: SessionGrant
        do {
            grant = try await self.grant(for: caller, resource: request.resource)
        } catch let unavailable as DatabaseUnavailable {
            throw refusal(.databaseUnavailable, APIError(unavailable))
        }
        try admit(caller, grant: grant)
        try authorize(request, grant: grant)
        let minted: MintedToken
        do {
            minted = try await keyRing.signers.token(
                request.tokenKind(for: grant.role), for: grant.role,
                resourceID: request.resource?.id ?? FleetEngineIdentifier.wildcard)
        } catch let error as APIError {
            logger.warning(
                "token not signed", metadata: ["username": "\(grant.username)", "error": "\(error.message)"])
            throw refusal(.signingFailed, error, grant)
        }
        return issued(minted, request, for: grant, by: caller, since: start)
    }

    /// ``sign(_:by:)`` on the calling thread, or `nil` when it would wait.
    private func signWithoutWaiting(_ request: TokenRequest, by caller: Caller) throws -> SignedToken? {
        let start = ContinuousClock.now
        // Read once: the ring's signers are behind a lock, and this is the hot path.
        let signers = keyRing.signers
        guard signers.signsWithoutWaiting else { return nil }
        let grant: SessionGrant
        switch caller.credential {
        case nil:
            throw missingCredentials()
        case .idToken:
            return nil
        case .session(let tokenHash):
            do {
                guard
                    let found = try store.sessionGrantWithoutWaiting(
                        tokenHash: tokenHash, now: options.epochSeconds, resource: request.resource)
                else { throw invalidSession() }
                grant = found
            } catch is ServerDatabase.UnavailableWithoutWaiting {
                return nil
            }
        }
        try admit(caller, grant: grant)
        try authorize(request, grant: grant)
        guard let minted = try signers.tokenWithoutWaiting(request.tokenKind(for: grant.role), for: grant.role) else {
            return nil
        }
        return issued(minted, request, for: grant, by: caller, since: start)
    }

    /// Counts the request against its session's limit (an ID token's: its account's), and
    /// refuses it (429 with `Retry-After`) over the limit. A request the rules would refuse
    /// counts too: a loop asking for the wrong vehicle is a loop.
    private func admit(_ caller: Caller, grant: SessionGrant) throws {
        let key =
            if case .session(let tokenHash) = caller.credential { "session " + tokenHash } else {
                "account " + grant.username
            }
        guard case .limited(let retryAfter, let isFirst) = limit.admit(key) else { return }
        metrics.tokenRequestLimited()
        throw refusal(
            .requestLimit,
            .resourceExhausted(
                "too many token requests from this session: at most \(limit.perMinute) a minute; ask again after Retry-After",
                retryAfter: retryAfter
            ), grant, quietly: !isFirst)
    }

    /// Refuses (403) an id that is `*` or not plain, an account of another role, or one not
    /// assigned to the resource asked about.
    private func authorize(_ request: TokenRequest, grant: SessionGrant) throws {
        if let resource = request.resource {
            if resource.id == FleetEngineIdentifier.wildcard {
                throw refusal(
                    .badID,
                    .permissionDenied(
                        "a token for every \(resource.kind) (\"*\") is never issued to an app; ask for one \(resource.kind) id"
                    ), grant)
            }
            if let problem = FleetEngineIdentifier.problem(with: resource.id) {
                throw refusal(
                    .badID, .permissionDenied("no token is issued for this \(resource.kind) id: it \(problem)"), grant)
            }
        }
        guard request.accountRoles.contains(grant.role) else {
            let roles = request.accountRoles.map(\.rawValue).joined(separator: " or ")
            throw refusal(
                .wrongRole,
                .permissionDenied(
                    "account \"\(grant.username)\" is a \(grant.role) account; these tokens are for \(roles) accounts"),
                grant)
        }
        if let resource = request.resource, !grant.isAssigned {
            throw refusal(
                .notAssigned, .permissionDenied("account \"\(grant.username)\" is not assigned to \(resource)"), grant)
        }
    }

    /// A token signed for `grant`, with its record when the record is on.
    private func issued(
        _ minted: MintedToken, _ request: TokenRequest, for grant: SessionGrant, by caller: Caller,
        since start: ContinuousClock.Instant
    ) -> SignedToken {
        let kind = request.tokenKind(for: grant.role).name
        var record: TokenRecord?
        if recorder.settings.isOn {
            let (id, recordedAt) = recorder.stamp()
            record = TokenRecord(
                id: id, recordedAt: recordedAt, outcome: .issued, reason: nil, account: grant.username,
                role: grant.role.rawValue, kind: kind, resource: request.resource, keyID: minted.keyID,
                issuedAt: minted.claims.issuedAt, expiresAt: minted.claims.expiresAt, sessionID: caller.sessionID,
                clientAddress: caller.address)
        }
        return SignedToken(
            minted: minted, kind: kind, resource: request.resource, record: record, grant: grant, start: start)
    }

    /// Records the refusal `error` stands for (a ``TokenRequestRefused``, or a failure no rule
    /// expects), and returns what to answer with.
    private func recordRefusal(_ error: any Error, of request: TokenRequest, by caller: Caller) -> any Error {
        let refused = error as? TokenRequestRefused
        if recorder.settings.isOn {
            let (id, recordedAt) = recorder.stamp()
            recorder.refused(
                TokenRecord(
                    id: id, recordedAt: recordedAt, outcome: .refused, reason: refused?.reason.rawValue ?? "error",
                    account: refused?.grant?.username ?? "-",
                    role: refused?.grant?.role.rawValue, kind: request.routeName,
                    // Only a plain id is kept: what else was asked for (a NUL, say) is the refusal's business, not the record's.
                    resource: request.resource.flatMap { FleetEngineIdentifier.problem(with: $0.id) == nil ? $0 : nil },
                    keyID: nil, issuedAt: nil, expiresAt: nil, sessionID: caller.sessionID,
                    clientAddress: caller.address))
        }
        return refused?.answer ?? error
    }

    /// The grant of the session or linked identity the caller's credential stands for.
    private func grant(for caller: Caller, resource: Resource?) async throws -> SessionGrant {
        switch caller.credential {
        case nil:
            throw missingCredentials()
        case .session(let tokenHash):
            let grant = try await store.sessionGrant(
                tokenHash: tokenHash, now: options.epochSeconds, resource: resource)
            guard let grant else { throw invalidSession() }
            return grant
        case .idToken(let token):
            guard let idTokens else {
                throw refusal(
                    .unauthenticated,
                    .unauthenticated(
                        "ID tokens are not accepted: this server trusts no OpenID Connect issuer; send a session token")
                )
            }
            let identity: LinkedIdentity
            do {
                identity = try await idTokens.verify(token)
            } catch {
                metrics.idTokenRefused(rule: error.rule)
                metrics.login(.oidc, succeeded: false)
                if case .issuerUnavailable(let issuer, let problem) = error {
                    logger.warning(
                        "ID token refused: its issuer's keys cannot be fetched",
                        metadata: ["issuer": "\(issuer)", "problem": "\(problem)"])
                    throw refusal(.issuerUnavailable, error.apiError(retryAfter: options.oidc.keyRefetchInterval))
                }
                throw refusal(
                    .invalidIDToken, error.apiError(retryAfter: options.oidc.keyRefetchInterval), rule: error.rule)
            }
            guard let grant = try await store.identityGrant(identity, resource: resource) else {
                metrics.login(.oidc, succeeded: false)
                logger.info(
                    "ID token of an unlinked identity",
                    metadata: ["issuer": "\(identity.issuer)", "subject": "\(identity.subject)"])
                throw refusal(
                    .unlinkedIdentity,
                    .permissionDenied(
                        "no account is linked to this identity (its issuer and subject); ask the operator to link one"))
            }
            metrics.login(.oidc, succeeded: true)
            return grant
        }
    }

    private func missingCredentials() -> TokenRequestRefused {
        let idToken = idTokens == nil ? "" : ", or an ID token of your sign-in"
        return refusal(
            .unauthenticated,
            .unauthenticated(
                "missing credentials: send Authorization: Bearer <session token> from POST /v1/sessions\(idToken)"))
    }

    private func invalidSession() -> TokenRequestRefused {
        refusal(
            .unauthenticated,
            .unauthenticated("the session is not valid: it is unknown, ended or expired; log in again"))
    }

    /// Counts and logs a refusal (`quietly`: at debug level, for the repeats of one that was
    /// logged), to be thrown and recorded.
    private func refusal(
        _ reason: RefusalReason, _ error: APIError, _ grant: SessionGrant? = nil, rule: String? = nil,
        quietly: Bool = false
    ) -> TokenRequestRefused {
        metrics.refused(reason)
        var metadata: Logger.Metadata = ["reason": "\(reason.rawValue)", "username": "\(grant?.username ?? "-")"]
        if let rule { metadata["rule"] = "\(rule)" }
        logger.log(level: quietly ? .debug : .info, "token refused", metadata: metadata)
        return TokenRequestRefused(answer: error, reason: reason, grant: grant)
    }
}
