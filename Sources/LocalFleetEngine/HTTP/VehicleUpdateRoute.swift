import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import ServerHTTP

/// UpdateVehicle over REST, `PUT /v1/providers/{p}/vehicles/{v}`, answered in the channel
/// pipeline (see ``ServerHTTP/PipelineRoute``): a driver app's location update, the engine's
/// busiest request.
///
/// It runs the core's own operation (``FleetEngineCore/updateVehicleWithoutWaiting(_:completion:)``)
/// on the event loop that read the request, and its answer leaves from that loop once the
/// group commit holding the update is saved: no task, no hop to another thread and back but
/// the commit's. A token whose key must first be fetched (and a request beyond the pipeline
/// handler's answers at once in one read) is answered through ``respond(to:body:)``, in a task.
/// Paths with a percent-escape or a colon, chunked bodies and bodies over the limit are left to
/// the router's route, which answers them the same way.
struct VehicleUpdateRoute: PipelineRoute {
    let core: FleetEngineCore
    let logger: Logger

    /// The update asked for, and what the answer needs of the request.
    struct Match: Sendable {
        let provider: String
        let vehicleID: String
        let updateMask: String?
        let enumsAsNumbers: Bool
        let authorization: [String]
        let path: String
    }

    var maximumBodyBytes: Int { StrictJSON.maximumBodySize }

    func match(_ head: HTTPRequestHead) -> Match? {
        guard head.method == .PUT else { return nil }
        let uri = URI(head.uri)
        let path = uri.path
        guard !path.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: ":") }) else { return nil }
        let segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard segments.count == 6, segments[0].isEmpty, segments[1].elementsEqual("v1".utf8), segments[2].elementsEqual("providers".utf8),
              !segments[3].isEmpty, segments[4].elementsEqual("vehicles".utf8), !segments[5].isEmpty
        else { return nil }
        return Match(
            provider: String(Substring(segments[3])), vehicleID: String(Substring(segments[5])),
            updateMask: uri.formQueryParameters.get("updateMask"), enumsAsNumbers: uri.asksForEnumNumbers,
            authorization: head.headers["authorization"], path: path)
    }

    func respondWithoutWaiting(to match: Match, body: ByteBuffer, on eventLoop: any EventLoop) -> PipelineReply? {
        let promise = eventLoop.makePromise(of: PipelineAnswer.self)
        let request = FleetEngineCore.UpdateWithoutWaiting(
            door: .rest, authorization: match.authorization, logPath: match.path, logger: logger,
            target: { (match.provider, match.vehicleID) }, updateMask: match.updateMask,
            readBody: { try ProtoJSONBody.decode(Vehicle.self, from: Array(body.readableBytesView)) })
        let taken = core.updateVehicleWithoutWaiting(request) { [logger] outcome in
            promise.succeed(Self.answer(outcome, match: match, logger: logger))
        }
        guard taken else {
            promise.fail(CancellationError())
            return nil
        }
        return .later(promise.futureResult)
    }

    func respond(to match: Match, body: ByteBuffer) async -> PipelineAnswer {
        let outcome: Result<Vehicle, APIError>
        do {
            let updated = try await core.measured("UpdateVehicle", door: .rest) {
                let token = try await core.authenticate(authorization: match.authorization, path: match.path, logger: logger)
                let call = FleetCall(token: token, provider: match.provider, logger: logger)
                return try await core.updateVehicle(call, vehicleID: match.vehicleID, updateMask: match.updateMask) {
                    try ProtoJSONBody.decode(Vehicle.self, from: Array(body.readableBytesView))
                }
            }
            outcome = .success(updated)
        } catch {
            outcome = .failure(error as? APIError ?? .unexpected(error, method: .put, path: match.path, logger: logger))
        }
        return Self.answer(outcome, match: match, logger: logger)
    }

    /// The updated vehicle in proto3 JSON, or the refusal.
    private static func answer(_ outcome: Result<Vehicle, APIError>, match: Match, logger: Logger) -> PipelineAnswer {
        do {
            return try PipelineAnswer(protoJSON: outcome.get(), enumsAsNumbers: match.enumsAsNumbers)
        } catch let refusal as APIError {
            return PipelineAnswer(refusal)
        } catch {
            return PipelineAnswer(.unexpected(error, method: .put, path: match.path, logger: logger))
        }
    }
}
