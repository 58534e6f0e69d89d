import FleetAuthServerHTTP
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// The driver apps' location updates over REST, answered in the channel pipeline (see
/// ``FleetAuthServerHTTP/PipelineRoute``): UpdateVehicle, `PUT /v1/providers/{p}/vehicles/{v}`, and
/// UpdateDeliveryVehicle, `PATCH /v1/providers/{p}/deliveryVehicles/{d}`, the engine's busiest
/// requests.
///
/// Each runs the core's own operation (``FleetEngineCore/updateWithoutWaiting(_:completion:)``)
/// on the event loop that read the request, and its answer leaves from that loop once the
/// group commit holding the update is saved: no task, no hop to another thread and back but
/// the commit's. A token whose key must first be fetched (and a request beyond the pipeline
/// handler's answers at once in one read) is answered through ``respond(to:body:)``, in a task.
/// Paths with a percent-escape or a colon, chunked bodies and bodies over the limit are left to
/// the router's routes, which answer them the same way.
struct LocationUpdateRoute: PipelineRoute {
    let core: FleetEngineCore
    let logger: Logger

    /// The update asked for, and what the answer needs of the request.
    struct Match: Sendable {
        /// The kind of resource updated.
        let resource: any LocationReporting.Type
        let provider: String
        let id: String
        let updateMask: String?
        let enumsAsNumbers: Bool
        let authorization: [String]
        let path: String
    }

    /// The resources whose updates are answered here.
    private static let resources: [any LocationReporting.Type] = [Vehicle.self, DeliveryVehicle.self]

    var maximumBodyBytes: Int { StrictJSON.maximumBodySize }

    func match(_ head: HTTPRequestHead, from _: SocketAddress?) -> Match? {
        guard head.method == .PUT || head.method == .PATCH else { return nil }
        let uri = URI(head.uri)
        let path = uri.path
        guard !path.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: ":") }) else { return nil }
        let segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard segments.count == 6, segments[0].isEmpty, segments[1].elementsEqual("v1".utf8),
            segments[2].elementsEqual("providers".utf8),
            !segments[3].isEmpty, !segments[5].isEmpty,
            let resource = Self.resources.first(where: {
                $0.restUpdateMethod == head.method && segments[4].elementsEqual($0.collection.utf8)
            })
        else { return nil }
        return Match(
            resource: resource, provider: String(Substring(segments[3])), id: String(Substring(segments[5])),
            updateMask: uri.formQueryParameters.get("updateMask"), enumsAsNumbers: uri.asksForEnumNumbers,
            authorization: head.headers["authorization"], path: path)
    }

    func respondWithoutWaiting(to match: Match, body: ByteBuffer, on eventLoop: any EventLoop)
        -> PipelineAnswerOrFuture?
    {
        respondWithoutWaiting(match.resource, to: match, body: body, on: eventLoop)
    }

    func respond(to match: Match, body: ByteBuffer) async -> PipelineAnswer {
        await respond(match.resource, to: match, body: body)
    }

    private func respondWithoutWaiting<Resource: LocationReporting>(
        _: Resource.Type, to match: Match, body: ByteBuffer, on eventLoop: any EventLoop
    ) -> PipelineAnswerOrFuture? {
        let promise = eventLoop.makePromise(of: PipelineAnswer.self)
        let request = FleetEngineCore.UpdateWithoutWaiting<Resource>(
            door: .rest, authorization: match.authorization, logPath: match.path, logger: logger,
            target: { (match.provider, match.id) }, updateMask: match.updateMask,
            readBody: { try ProtoJSONBody.decode(Resource.self, from: Array(body.readableBytesView)) },
            recordedBody: { .rest(body.readableBytesView) })
        let taken = core.updateWithoutWaiting(request) { [logger] outcome in
            promise.succeed(Self.answer(outcome, match: match, logger: logger))
        }
        guard taken else {
            promise.fail(CancellationError())
            return nil
        }
        return .later(promise.futureResult)
    }

    private func respond<Resource: LocationReporting>(_: Resource.Type, to match: Match, body: ByteBuffer) async
        -> PipelineAnswer
    {
        let outcome: Result<Resource, APIError>
        do {
            let updated = try await core.restCall(
                Resource.updateMethod, resource: match.id, authorization: match.authorization, path: match.path,
                logger: logger, body: { body }
            ) { token in
                let call = FleetCall(token: token, provider: match.provider, logger: logger)
                return try await Resource.acceptUpdate(in: core, call, id: match.id, updateMask: match.updateMask) {
                    try ProtoJSONBody.decode(Resource.self, from: Array(body.readableBytesView))
                }.saved()
            }
            outcome = .success(updated)
        } catch {
            outcome = .failure(
                .refusal(
                    for: error, method: .init(Resource.restUpdateMethod.rawValue) ?? .put, path: match.path,
                    logger: logger))
        }
        return Self.answer(outcome, match: match, logger: logger)
    }

    /// The updated resource in proto3 JSON, or the refusal.
    private static func answer<Resource: LocationReporting>(
        _ outcome: Result<Resource, APIError>, match: Match, logger: Logger
    ) -> PipelineAnswer {
        do {
            return try PipelineAnswer(protoJSON: outcome.get(), enumsAsNumbers: match.enumsAsNumbers)
        } catch {
            return PipelineAnswer(
                .refusal(
                    for: error, method: .init(Resource.restUpdateMethod.rawValue) ?? .put, path: match.path,
                    logger: logger))
        }
    }
}
