import FleetEngineProtos
import GRPCCore
import GRPCNIOTransportHTTP2
import GRPCProtobuf
import TestSupport

/// grpc-swift's generated clients for a test engine's gRPC door on loopback.
struct GRPCTestClient: Sendable {
    typealias Transport = HTTP2ClientTransport.Posix

    let vehicles: Maps_Fleetengine_V1_VehicleService.Client<Transport>
    let trips: Maps_Fleetengine_V1_TripService.Client<Transport>
    let deliveries: Maps_Fleetengine_Delivery_V1_DeliveryService.Client<Transport>
    let health: Grpc_Health_V1_Health.Client<Transport>
    /// The underlying client, for raw calls.
    let client: GRPCClient<Transport>

    /// Runs `body` with clients connected to the gRPC door of `engine`.
    static func with<Result: Sendable>(_ engine: TestClient, _ body: (GRPCTestClient) async throws -> Result)
        async throws -> Result
    {
        guard let port = engine.grpcPort else { throw TestFailure("the test engine has no gRPC door") }
        // gzip may be asked for per call (the door refuses compressed calls); calls go uncompressed by default.
        let transport = try HTTP2ClientTransport.Posix(
            target: .ipv4(address: "127.0.0.1", port: port), transportSecurity: .plaintext,
            config: .defaults { $0.compression.enabledAlgorithms = .all })
        return try await withGRPCClient(transport: transport) { client in
            try await body(
                GRPCTestClient(
                    vehicles: .init(wrapping: client), trips: .init(wrapping: client),
                    deliveries: .init(wrapping: client), health: .init(wrapping: client),
                    client: client))
        }
    }

    /// Metadata carrying `authorization: Bearer <token>`.
    static func bearer(_ token: String) -> Metadata {
        ["authorization": "Bearer \(token)"]
    }

    /// Sends `bytes` as the request message of `method` (e.g. `maps.fleetengine.v1.VehicleService/CreateVehicle`)
    /// and returns the status the server answered with.
    func rawCall(_ method: MethodDescriptor, bytes: [UInt8], metadata: Metadata, options: CallOptions = .defaults) async
        -> GRPCOutcome
    {
        await GRPCOutcome.of {
            try await client.unary(
                request: ClientRequest(message: bytes, metadata: metadata), descriptor: method,
                serializer: RawBytes(), deserializer: RawBytes(), options: options
            ) { response in try response.message }
        }
    }
}

/// How a gRPC call ended: its status code and message.
struct GRPCOutcome: Sendable, Equatable, CustomStringConvertible {
    let code: RPCError.Code?
    let message: String

    /// `code == nil` for success.
    static func of<Value>(_ call: () async throws -> Value) async -> GRPCOutcome {
        do {
            _ = try await call()
            return GRPCOutcome(code: nil, message: "")
        } catch let error as RPCError {
            return GRPCOutcome(code: error.code, message: error.message)
        } catch {
            return GRPCOutcome(code: .unknown, message: "\(error)")
        }
    }

    var description: String { "\(code.map { "\($0)" } ?? "OK") \(message)" }
}

/// Messages as they are on the wire, to send what no generated message would.
struct RawBytes: MessageSerializer, MessageDeserializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes { Bytes(message) }
    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> [UInt8] {
        serializedMessageBytes.withUnsafeBytes { Array($0) }
    }
}
