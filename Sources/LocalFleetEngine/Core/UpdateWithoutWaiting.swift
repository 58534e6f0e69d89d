import FleetAuthServerHTTP
import Foundation
import HTTPTypes
import Logging

extension FleetEngineCore {
    /// Where an update of a vehicle or delivery vehicle answered without a task comes from, and
    /// what the door read of it.
    struct UpdateWithoutWaiting<Resource: LocationReporting> {
        /// The door it came through, for `/metrics`.
        let door: FleetEngineMetrics.Door
        /// The request's `authorization` values.
        let authorization: [String]
        /// What names the request in the log (a path, a method).
        let logPath: String
        /// The log of the door.
        let logger: Logger
        /// The provider and resource id the request names (a gRPC request's `name`); read once
        /// the token is verified, as the door's other calls read it.
        let target: () throws(APIError) -> (provider: String, id: String)
        /// The update mask.
        let updateMask: String?
        /// The resource of the request (its body, or its message's field).
        let readBody: () throws -> Resource
        /// The body, as the call is recorded with it; made only when calls are recorded.
        let recordedBody: () -> RequestBody?
    }

    /// UpdateVehicle or UpdateDeliveryVehicle, the location update of a driver app, answered
    /// without a task: the token is checked with the keys at hand, the update with
    /// ``LocationReporting/acceptUpdate(in:_:id:updateMask:readBody:)``, and `completion` gets
    /// the resource once its write is saved (on the thread that saved it), or the refusal (at
    /// once). Counted for `/metrics` as every call is.
    ///
    /// - Returns: `false`, having done nothing, when the token's key might first have to be
    ///   fetched: the door answers through the method's waiting operation.
    func updateWithoutWaiting<Resource>(
        _ request: UpdateWithoutWaiting<Resource>, completion: @escaping @Sendable (Result<Resource, APIError>) -> Void
    ) -> Bool {
        let start = ContinuousClock.now
        guard faults?.isEmpty ?? true else { return false }
        guard
            let authenticated = authenticateWithoutWaiting(
                authorization: request.authorization, path: request.logPath, logger: request.logger)
        else { return false }
        let door = request.door
        var note = CallNote(keepsBody: requests != nil, token: try? authenticated.get())
        let end: @Sendable (CallNote, Result<Resource, APIError>) -> Void = { note, outcome in
            finished(Resource.updateMethod, door: door, note: note, refusal: outcome.failure, elapsed: .now - start)
            completion(outcome)
        }
        do {
            let token = try authenticated.get()
            note.keep(body: request.recordedBody())
            let (provider, id) = try request.target()
            note.resource = id
            let call = FleetCall(token: token, provider: provider, logger: request.logger)
            let accepted = try Resource.acceptUpdate(
                in: self, call, id: id, updateMask: request.updateMask, readBody: request.readBody)
            accepted.acknowledgement.whenComplete { [note] saved in
                end(note, saved.map { accepted.value }.mapError { $0 as? APIError ?? .internal })
            }
        } catch {
            // For the log: the REST method (PUT or PATCH), or a gRPC call's POST.
            let method: HTTPRequest.Method =
                request.door == .rest ? HTTPRequest.Method(Resource.restUpdateMethod.rawValue) ?? .put : .post
            end(note, .failure(.refusal(for: error, method: method, path: request.logPath, logger: request.logger)))
        }
        return true
    }
}

extension Result {
    /// The error, or `nil` for a success.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
