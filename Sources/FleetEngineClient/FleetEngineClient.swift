import FleetTokenProvider
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A small REST client for Fleet Engine's vehicles and trips, delivery vehicles and shipments
/// (v1 paths, proto3 JSON) that attaches a token from an ``AuthorizationTokenProvider`` to every
/// call.
///
/// Each call asks the provider for a token for the call's ``AuthorizationContext`` (the
/// vehicle for vehicle calls, the trip for trip reads, unless told otherwise). When Fleet
/// Engine answers 401 the client invalidates that token and tries once more with a fresh one,
/// never in a loop; every other failure is thrown as a ``FleetEngineError``.
public struct FleetEngineClient: Sendable {
    /// Fleet Engine's address, e.g. `https://fleetengine.googleapis.com`.
    public let baseURL: URL
    /// The provider (Cloud project id) whose vehicles and trips are called.
    public let providerID: String
    /// Where tokens come from.
    public let tokens: any AuthorizationTokenProvider
    /// How long one request may wait for an answer.
    public let requestTimeout: Duration
    private let transport: any HTTPTransport

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - baseURL: Fleet Engine's address (scheme, host, port).
    ///   - providerID: The Cloud project id.
    ///   - tokens: Hands out the token for each call's context.
    ///   - requestTimeout: How long one request may wait for an answer. Default 10 s.
    ///   - transport: Sends the requests; `URLSession.shared` by default.
    public init(
        baseURL: URL,
        providerID: String,
        tokens: any AuthorizationTokenProvider,
        requestTimeout: Duration = .seconds(10),
        transport: any HTTPTransport = URLSessionTransport()
    ) {
        self.baseURL = baseURL
        self.providerID = providerID
        self.tokens = tokens
        self.requestTimeout = requestTimeout
        self.transport = transport
    }

    /// Creates vehicle `id` (needs a server token).
    public func createVehicle(_ vehicle: Vehicle, id: String) async throws -> Vehicle {
        try await call(
            .post, "vehicles", query: ["vehicleId": id], body: vehicle, context: AuthorizationContext(vehicleID: id))
    }

    /// Reads vehicle `id`.
    public func vehicle(_ id: String) async throws -> Vehicle {
        try await call(.get, "vehicles/\(id)", body: Empty?.none, context: AuthorizationContext(vehicleID: id))
    }

    /// Sets vehicle `id`'s `lastLocation` (what a driver app sends), returning the vehicle as
    /// stored.
    public func updateLocation(_ location: VehicleLocation, ofVehicle id: String) async throws -> Vehicle {
        var update = Vehicle(vehicleState: nil, supportedTripTypes: nil, maximumCapacity: nil, vehicleType: nil)
        update.lastLocation = location
        return try await call(
            .put, "vehicles/\(id)", query: ["updateMask": "lastLocation"], body: update,
            context: AuthorizationContext(vehicleID: id))
    }

    /// Creates trip `id` (needs a server token).
    public func createTrip(_ trip: Trip, id: String) async throws -> Trip {
        try await call(.post, "trips", query: ["tripId": id], body: trip, context: AuthorizationContext(tripID: id))
    }

    /// Reads trip `id` with the token for `context`: the trip itself by default (a consumer),
    /// or the trip's vehicle (its driver).
    public func trip(_ id: String, as context: AuthorizationContext? = nil) async throws -> Trip {
        try await call(.get, "trips/\(id)", body: Empty?.none, context: context ?? AuthorizationContext(tripID: id))
    }

    /// Sets trip `id`'s status with the token for `context`, usually its vehicle's (a driver).
    public func updateStatus(_ status: Trip.Status, ofTrip id: String, as context: AuthorizationContext) async throws
        -> Trip
    {
        var update = Trip(vehicleId: nil, pickupPoint: nil, tripType: nil)
        update.tripStatus = status
        return try await call(.put, "trips/\(id)", query: ["updateMask": "tripStatus"], body: update, context: context)
    }

    enum Method: String {
        case get = "GET", post = "POST", put = "PUT", patch = "PATCH"
    }

    private struct Empty: Encodable {}

    private struct ErrorBody: Decodable {
        struct Detail: Decodable {
            let status: String?
            let message: String?
        }

        let error: Detail
    }

    /// Sends one call, trying once more with a fresh token after a 401.
    func call<Response: Decodable>(
        _ method: Method,
        _ path: String,
        query: [String: String] = [:],
        body: (some Encodable)?,
        context: AuthorizationContext
    ) async throws -> Response {
        var request = try request(method, path, query: query)
        do {
            request.httpBody = try body.map { try ProtoJSON.encode($0) }
        } catch {
            throw FleetEngineError.invalidRequest("the body is not valid JSON (a number that is not finite?)")
        }
        var triedFreshToken = false
        while true {
            let token: String
            do {
                token = try await tokens.token(for: context)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw FleetEngineError.tokenUnavailable(error)
            }
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            let (data, response) = try await send(request)
            switch response.statusCode {
            case 200..<300:
                guard let decoded = try? ProtoJSON.decode(Response.self, from: data) else {
                    throw FleetEngineError.malformedResponse
                }
                return decoded
            case 401 where !triedFreshToken:
                triedFreshToken = true
                await tokens.invalidate(context)
            default:
                let detail = try? JSONDecoder().decode(ErrorBody.self, from: data).error
                throw FleetEngineError.refused(
                    httpStatus: response.statusCode,
                    status: detail?.status ?? "UNKNOWN",
                    message: detail?.message ?? HTTPURLResponse.localizedString(forStatusCode: response.statusCode),
                    retryAfter: response.retryAfter
                )
            }
        }
    }

    /// Sends `request`, turning URL loading errors into ``FleetEngineError/transport(_:)``.
    private func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        do {
            return try await transport.send(request, timeout: requestTimeout)
        } catch let error as URLError {
            throw FleetEngineError.transport(error.code)
        }
    }

    private func request(_ method: Method, _ path: String, query: [String: String]) throws -> URLRequest {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
        components?.path = "/v1/providers/\(providerID)/\(path)"
        components?.queryItems =
            query.isEmpty ? nil : query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        guard let url = components?.url else {
            throw FleetEngineError.invalidRequest(
                "no valid URL for provider '\(providerID)' and path '\(path)' under \(baseURL)")
        }
        var request = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: requestTimeout.timeInterval)
        request.httpMethod = method.rawValue
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if method != .get { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        return request
    }
}
