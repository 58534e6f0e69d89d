import FleetAuthServerHTTP
import FleetTokens
import Foundation
import Logging

/// The local Fleet Engine's methods, each one operation — token, permission rule, validation,
/// store — that the REST routes and the gRPC services both call with Google's messages: the
/// doors only read resource names and encodings, and turn refusals into their statuses.
/// Refusals are ``APIError``s, in the order the API promises: 401, 403, 400, 404, 409.
struct FleetEngineCore: Sendable {
    /// The vehicles and trips.
    let state: EngineState
    /// Fleet Engine's permission table.
    let policy: AccessPolicy
    /// Verifies tokens against the trusted accounts.
    let authenticator: TokenAuthenticator
    /// The clock for `serverTime`.
    let now: @Sendable () -> Date
    /// What is counted for `/metrics`.
    let metrics: FleetEngineMetrics
    /// The console's table of recent calls (`nil`: the console is off).
    let requests: RequestLog?
    /// The faults a test injected (`nil`: the harness is off with the console).
    let faults: FaultInjector?

    /// The verified token among a request's `authorization` values (one `Bearer <JWT>` is
    /// expected), or 401 naming the rule the token broke; `path` names the request in the log.
    func authenticate(authorization values: [String], path: String, logger: Logger) async throws(APIError)
        -> VerifiedToken
    {
        do {
            return try await authenticator.authenticate(BearerCredentials.read(values).jwt())
        } catch {
            throw refused(error, path: path, logger: logger)
        }
    }

    /// ``authenticate(authorization:path:logger:)`` with the keys at hand, or `nil` when
    /// fetching keys might change the answer.
    func authenticateWithoutWaiting(authorization values: [String], path: String, logger: Logger) -> Result<
        VerifiedToken, APIError
    >? {
        let outcome: Result<VerifiedToken, TokenRefusal>?
        do {
            outcome = authenticator.authenticateWithoutWaiting(try BearerCredentials.read(values).jwt())
        } catch {
            outcome = .failure(error)
        }
        return outcome?.mapError { refused($0, path: path, logger: logger) }
    }

    /// The 401 for a refused token, logged and counted.
    private func refused(_ refusal: TokenRefusal, path: String, logger: Logger) -> APIError {
        logger.info("token refused", metadata: ["reason": "\(refusal.reason)", "path": "\(path)"])
        metrics.refused(reason: refusal.reason)
        return .unauthenticated(refusal.description)
    }

    /// Runs `operation`, the whole of API `method`'s answer through `door` for `resource`, and
    /// counts it; the operation notes the caller's token as it learns it
    /// (``CallNote/authenticated(_:)``), which applies the fault a test injected for the call.
    func measured<Result>(
        _ method: String, door: FleetEngineMetrics.Door, resource: String,
        _ operation: (inout CallNote) async throws -> Result
    ) async throws -> Result {
        let start = ContinuousClock.now
        var note = CallNote(
            keepsBody: requests != nil, resource: resource,
            fault: faults?.fault(for: method, door: door.rawValue, resource: resource))
        do {
            let result = try await operation(&note)
            finished(method, door: door, note: note, refusal: nil, elapsed: ContinuousClock.now - start)
            return result
        } catch {
            finished(
                method, door: door, note: note, refusal: error as? APIError ?? .internal,
                elapsed: ContinuousClock.now - start)
            throw error
        }
    }

    /// Counts a call of API `method` through `door` that ended with `refusal` (`nil`: answered)
    /// after `elapsed`, for `/metrics` and the console.
    func finished(
        _ method: String, door: FleetEngineMetrics.Door, note: CallNote, refusal: APIError?, elapsed: Duration
    ) {
        metrics.record(method, door: door, refusal: refusal, elapsed: elapsed)
        requests?.record(door: door.rawValue, method: method, note: note, refusal: refusal, elapsed: elapsed)
    }

    /// The decision for `operation` by the caller of `call`; throws 403 naming the rule when denied.
    func authorize(_ operation: FleetOperation, _ call: FleetCall) throws(APIError) -> AccessDecision {
        let decision = policy.decide(call.token, operation, provider: call.provider)
        if case .denied(let rule) = decision {
            call.logger.info(
                "permission denied", metadata: ["operation": "\(operation)", "role": "\(call.token.role.shortName)"])
            throw .permissionDenied(rule)
        }
        return decision
    }

    /// Refuses an id that is missing or not a plain Fleet Engine id; `what` names it.
    static func requireValidID(_ id: String, _ what: String) throws(APIError) {
        guard !id.isEmpty else { throw .invalidArgument("\(what) is required") }
        if let problem = FleetEngineIdentifier.problem(with: id) { throw .invalidArgument("\(what) \(problem)") }
    }

    /// Runs a validation, turning its ``InvalidArgument`` into a 400.
    static func validate(_ check: () throws(InvalidArgument) -> Void) throws(APIError) {
        do {
            try check()
        } catch {
            throw .invalidArgument(error.description)
        }
    }
}
