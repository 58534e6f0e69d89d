import FleetTokens
import Logging

/// One request as the core sees it, whichever door it came through: the caller's verified
/// token, the provider the request names, and the request's logger.
struct FleetCall: Sendable {
    /// The caller's verified token.
    let token: VerifiedToken
    /// The provider (Cloud project id) the request names.
    let provider: String
    /// The request's logger.
    let logger: Logger
}

/// What a door learns of a call while answering it, for the console's table of calls and
/// `/emulator/v1/calls`: the verified token (its claims, never the token), the id of the
/// resource it names, its body, and the injected fault it met.
struct CallNote: Sendable {
    /// Whether the calls are recorded (the console is on): only then is a body kept.
    let keepsBody: Bool
    /// The caller's verified token, once verified.
    var token: VerifiedToken?
    /// The id of the resource the call names (empty for a collection).
    var resource: String
    /// The fault a test injected for the call (``FaultInjector``), applied once its token is
    /// verified, so that the call is recorded with it.
    var fault: FaultInjector.Fault?
    /// The body the call sent, as Google's HTTP mapping defines it.
    private(set) var body: RequestBody?
    /// The id of the injected fault the call met, once applied.
    private(set) var appliedFault: Int?

    /// A note of a call naming `resource`, met by `fault`, whose body is kept when `keepsBody`.
    init(keepsBody: Bool, token: VerifiedToken? = nil, resource: String = "", fault: FaultInjector.Fault? = nil) {
        self.keepsBody = keepsBody
        self.token = token
        self.resource = resource
        self.fault = fault
    }

    /// Keeps `body` (made only when the calls are recorded: a copy of a REST body costs).
    mutating func keep(body: @autoclosure () -> RequestBody?) {
        if keepsBody { self.body = body() }
    }

    /// Takes note of the caller's verified token, then applies the injected fault, if any: its
    /// delay, then its refusal (the call then goes no further and changes nothing).
    mutating func authenticated(_ token: VerifiedToken) async throws {
        self.token = token
        guard let fault else { return }
        appliedFault = fault.ruleID
        if fault.delay > .zero { try await Task.sleep(for: fault.delay) }
        if let refusal = fault.refusal { throw refusal }
    }
}
