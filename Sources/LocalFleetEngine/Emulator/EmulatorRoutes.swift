import FleetAuthServerHTTP
import Foundation
import Hummingbird

/// `POST /emulator/v1/clock` body: one of `advance`, `set`, `freeze` or `reset`.
struct ClockChange: StrictJSONBody {
    enum CodingKeys: String, CodingKey, CaseIterable { case advance, set, freeze, reset }
    let advance: String?
    let set: String?
    let freeze: Bool?
    let reset: Bool?
}

/// The test harness under `/emulator/v1/`, in the spirit of Firebase's emulator REST API: the
/// engine's clock, a reset, injected faults and the calls made. On the console's terms
/// (``ConsoleGuard``): loopback only, or with the console's key; off with the console.
///
/// - `GET clock`, `POST clock` `{"advance": "3600s"}` | `{"set": RFC 3339}` | `{"freeze": true}`
///   | `{"reset": true}`;
/// - `POST reset` `{}` or `{"kinds": ["trips"]}`;
/// - `GET`, `POST`, `DELETE faults`;
/// - `GET calls?method=&resource=&status=&role=&since=`;
/// - `GET openapi.yaml`: `docs/local-fleet-engine-emulator.openapi.yaml`.
struct EmulatorRoutes: Sendable {
    typealias Context = FleetEngineRequestContext

    let console: FleetConsole
    let state: EngineState
    let clock: EngineClock
    let faults: FaultInjector

    func register(on router: Router<Context>) {
        let api = router.group("emulator/v1").add(middleware: ConsoleGuard(access: console.access))
        api.addOpenAPIRoute(PackageResources.local_fleet_engine_emulator_openapi_yaml)
        api.get("clock") { _, _ in ConsoleRoutes.json(clock.reading) }
        api.post("clock") { request, context in
            let change = try await StrictJSON.decode(ClockChange.self, from: request, context: context)
            try apply(change)
            return ConsoleRoutes.json(clock.reading)
        }
        api.post("reset") { request, context in
            let body = try await StrictJSON.decode(ResetRequest.self, from: request, context: context)
            let kinds = try body.resourceKinds()
            try await state.reset(kinds).saved()
            if kinds == Set(ResourceKind.allCases) { console.requests.removeAll() }
            return ConsoleRoutes.json(state.counts)
        }
        api.get("faults") { _, _ in ConsoleRoutes.json(["faults": faults.active]) }
        api.post("faults") { request, context in
            let rule = try await StrictJSON.decode(FaultRequest.self, from: request, context: context)
            return ConsoleRoutes.json(try faults.add(rule.rule()))
        }
        api.delete("faults") { _, _ in
            faults.removeAll()
            return ConsoleRoutes.json(["faults": faults.active])
        }
        api.get("calls") { request, _ in
            let query = request.uri.formQueryParameters
            let since = try query.get("since").map { text throws(APIError) in
                guard let date = RFC3339.date(text) else {
                    throw APIError.invalidArgument("since must be an RFC 3339 time such as 2026-01-02T03:04:05Z")
                }
                return date
            }
            let calls = console.requests.page(
                RequestFilter(query: query), before: nil, limit: console.requests.capacity
            )
            .filter { record in since.map { record.time >= $0 } ?? true }
            return ConsoleRoutes.json(["calls": Array(calls.reversed())])
        }
    }

    private func apply(_ change: ClockChange) throws(APIError) {
        let given = [change.advance != nil, change.set != nil, change.freeze != nil, change.reset != nil].filter { $0 }
            .count
        guard given == 1 else {
            throw .invalidArgument(
                "give one of advance (\"3600s\"), set (an RFC 3339 time), freeze (true or false) and reset (true)")
        }
        if let advance = change.advance {
            guard let duration = ProtoDuration(text: advance) else {
                throw .invalidArgument("advance must be a duration such as \"3600s\" or \"-1.5s\"")
            }
            let seconds =
                TimeInterval(duration.duration.components.seconds) + Double(duration.duration.components.attoseconds)
                / 1e18
            try Self.requireWithinRange(clock.now().addingTimeInterval(seconds))
            clock.advance(by: seconds)
        } else if let set = change.set {
            guard let date = RFC3339.date(set) else {
                throw .invalidArgument("set must be an RFC 3339 time such as 2026-01-02T03:04:05Z")
            }
            try Self.requireWithinRange(date)
            clock.set(to: date)
        } else if let freeze = change.freeze {
            clock.freeze(freeze)
        } else if change.reset == true {
            clock.reset()
        } else {
            throw .invalidArgument("reset takes true")
        }
    }
}

extension EmulatorRoutes {
    /// The times the clock may show: those an RFC 3339 time with a four-digit year can name,
    /// from 1970 on (tokens count seconds since then).
    static let clockRange = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 253_402_300_799)

    /// Refuses a clock change that would leave ``clockRange``.
    static func requireWithinRange(_ date: Date) throws(APIError) {
        guard clockRange.contains(date) else {
            throw .invalidArgument("the engine's clock stays between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z")
        }
    }
}

/// `POST /emulator/v1/reset` body: `{}` for everything, or the kinds to empty.
struct ResetRequest: StrictJSONBody {
    enum CodingKeys: String, CodingKey, CaseIterable { case kinds }
    let kinds: [String]?

    /// The kinds named, with what depends on them: a vehicle's trips go with the vehicles, a
    /// delivery vehicle's tasks with the delivery vehicles.
    func resourceKinds() throws(APIError) -> Set<ResourceKind> {
        guard let kinds else { return Set(ResourceKind.allCases) }
        let names: [String: ResourceKind] = [
            "vehicles": .vehicle, "trips": .trip, "deliveryVehicles": .deliveryVehicle, "tasks": .task,
        ]
        var chosen = Set<ResourceKind>()
        for name in kinds {
            guard let kind = names[name] else {
                throw .invalidArgument(
                    "'\(name)' is not a kind; the kinds are \(names.keys.sorted().joined(separator: ", "))")
            }
            chosen.insert(kind)
        }
        if chosen.contains(.vehicle) { chosen.insert(.trip) }
        if chosen.contains(.deliveryVehicle) { chosen.insert(.task) }
        return chosen
    }
}
