import FleetAuthServerHTTP
import Hummingbird

/// `POST /v1/sessions` body.
package struct LoginRequest: StrictJSONBody {
    package enum CodingKeys: String, CodingKey, CaseIterable { case username, password }
    package let username: String
    package let password: String
}

/// `POST /v1/sessions` answer.
struct SessionResponse: Encodable {
    let sessionToken: String
    let expiresAt: Int64
}

extension TokenServer {
    /// `POST /v1/sessions` (log in) and `DELETE /v1/sessions/current` (log out).
    func addSessionRoutes(to group: RouterGroup<TokenServerContext>) {
        group.post { request, context in
            let login = try await StrictJSON.decode(LoginRequest.self, from: request, context: context)
            return try JSONResponse.make(try await self.logIn(login, from: context.clientAddress), status: .created)
        }
        group.delete("current") { request, _ in
            guard let token = BearerCredentials.token(in: request.headers) else {
                throw APIError.unauthenticated("missing credentials: send Authorization: Bearer <session token>")
            }
            guard try await self.store.endSession(tokenHash: SecretToken.hash(token)) else {
                throw APIError.unauthenticated("the session is not valid: it is unknown, ended or expired")
            }
            return JSONResponse.noContent
        }
    }

    /// Checks the password (throttled per username and address) and starts a session.
    func logIn(_ login: LoginRequest, from address: String?) async throws -> SessionResponse {
        if let wait = await throttle.wait(username: login.username, address: address) {
            issuer.metrics.refused(.throttled)
            logger.notice(
                "login throttled", metadata: ["username": "\(login.username)", "address": "\(address ?? "-")"])
            throw APIError.resourceExhausted("too many failed logins; try again later", retryAfter: wait)
        }
        let known = AccountRules.problem(withUsername: login.username) == nil
        let hash = known ? try await store.passwordHash(username: login.username) : nil
        guard try await accounts.hasher.verify(login.password, hash: hash) else {
            await throttle.recordFailure(username: login.username, address: address)
            issuer.metrics.login(.password, succeeded: false)
            logger.info("login failed", metadata: ["username": "\(login.username)", "address": "\(address ?? "-")"])
            throw APIError.unauthenticated("wrong username or password")
        }
        await throttle.recordSuccess(username: login.username)
        let token = SecretToken.generate(prefix: SecretToken.sessionPrefix)
        let now = options.epochSeconds
        let expiresAt = now + options.sessionLifetime.components.seconds
        try await store.purgeExpiredSessions(now: now)
        try await store.createSession(
            tokenHash: SecretToken.hash(token), username: login.username, createdAt: now, expiresAt: expiresAt)
        issuer.metrics.login(.password, succeeded: true)
        logger.info("login", metadata: ["username": "\(login.username)"])
        return SessionResponse(sessionToken: token, expiresAt: expiresAt)
    }
}
