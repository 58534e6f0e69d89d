import FleetAuthLocking
import FleetAuthServerHTTP
import Foundation

/// One fault a test injected (`POST /emulator/v1/faults`): the request that made it, with its
/// id and, for one with a count, how many more calls it matches.
struct FaultRule: Sendable, Encodable {
    /// Its id, for the list.
    var id: Int
    /// Which calls it matches and what they get, as asked; `count` goes down as calls match.
    var request: FaultRequest
    /// How long a matched call waits first.
    let delay: Duration

    private enum CodingKeys: String, CodingKey { case id }

    /// The request's members, with the id.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try request.encode(to: encoder)
    }
}

/// `POST /emulator/v1/faults` body.
struct FaultRequest: StrictJSONBody, Encodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case method, resource, door, status, count, probability, latency
    }
    let method: String?
    let resource: String?
    let door: String?
    let status: String?
    var count: Int?
    let probability: Double?
    let latency: String?

    /// The rule it asks for, checked.
    func rule() throws(APIError) -> FaultRule {
        guard status != nil || latency != nil else {
            throw .invalidArgument("give a status (\"UNAVAILABLE\"), a latency (\"2s\"), or both")
        }
        if let status {
            guard let code = APIError.Code(rawValue: status), FaultInjector.statuses.contains(code) else {
                throw .invalidArgument(
                    "status '\(status)' cannot be injected; give one of \(FaultInjector.statuses.map(\.rawValue).joined(separator: ", "))"
                )
            }
        }
        if let door, door != "rest", door != "grpc" { throw .invalidArgument("door is rest or grpc") }
        if let count, !(1...1_000_000).contains(count) { throw .invalidArgument("count must be 1 to 1000000") }
        if let probability, !(probability > 0 && probability <= 1) {
            throw .invalidArgument("probability must be above 0 and at most 1")
        }
        var delay = Duration.zero
        if let latency {
            guard let duration = ProtoDuration(text: latency)?.duration, duration >= .zero, duration <= .seconds(60)
            else {
                throw .invalidArgument("latency must be a duration from \"0s\" to \"60s\"")
            }
            delay = duration
        }
        return FaultRule(id: 0, request: self, delay: delay)
    }
}

/// The faults injected into the engine's calls, on both doors: each call asks ``fault(for:door:resource:)``
/// before the core runs it, so a faulted call changes nothing. The first rule that matches
/// applies, and one with a count ends once it has matched that many calls.
final class FaultInjector: Sendable {
    /// What a matched call gets.
    struct Fault: Sendable {
        /// The id of the rule it comes from.
        let ruleID: Int
        /// How long it waits first.
        let delay: Duration
        /// The refusal it then gets; `nil`: it goes on.
        let refusal: APIError?
    }

    /// The statuses a fault may answer with, those Google's services answer with too.
    static let statuses: [APIError.Code] = [
        .unavailable, .internal, .resourceExhausted, .permissionDenied, .notFound, .invalidArgument,
        .failedPrecondition, .unauthenticated,
    ]

    private struct Rules {
        var rules: [FaultRule] = []
        var nextID = 1
    }

    private let state = Locked(Rules())

    /// Whether no fault is injected: the engine's fast paths then ask nothing more.
    var isEmpty: Bool { state.withLock { $0.rules.isEmpty } }

    /// The faults active, in the order they are tried.
    var active: [FaultRule] { state.withLock { $0.rules } }

    /// Adds `rule`, tried after those before it; returns it with its id.
    func add(_ rule: FaultRule) -> FaultRule {
        state.withLock { state in
            var added = rule
            added.id = state.nextID
            state.nextID += 1
            state.rules.append(added)
            return added
        }
    }

    /// Clears every fault.
    func removeAll() {
        state.withLock { $0.rules.removeAll() }
    }

    /// The fault for a call of `method` through `door` naming `resource`, if one applies;
    /// counts it against its rule.
    func fault(for method: String, door: String, resource: String) -> Fault? {
        state.withLock { state -> Fault? in
            guard
                let index = state.rules.firstIndex(where: { rule in
                    let asked = rule.request
                    return (asked.method == nil || asked.method == method) && (asked.door == nil || asked.door == door)
                        && (asked.resource == nil || asked.resource == resource)
                })
            else { return nil }
            let rule = state.rules[index]
            if let probability = rule.request.probability, Double.random(in: 0..<1) >= probability { return nil }
            if let count = rule.request.count {
                if count <= 1 { state.rules.remove(at: index) } else { state.rules[index].request.count = count - 1 }
            }
            let refusal = rule.request.status.flatMap(APIError.Code.init(rawValue:)).map { code in
                APIError(
                    code, "injected fault \(rule.id): \(code.rawValue) for \(method) (POST /emulator/v1/faults)",
                    retryAfter: code == .unavailable || code == .resourceExhausted ? .seconds(1) : nil)
            }
            return Fault(ruleID: rule.id, delay: rule.delay, refusal: refusal)
        }
    }
}
