import FleetAuthServerHTTP
import GRPCCore
import GRPCProtobuf
import SwiftProtobuf

/// One unary method of a Fleet Engine service over gRPC, as a row of its service's table: the
/// method's descriptor, where its request names the provider and the resource (``GRPCTarget``),
/// and the core operation that answers it. ``GRPCServiceTable`` registers the rows; what every
/// method does around its operation (the token, the status of a refusal, the count) is
/// ``GRPCCallRunner``'s, once for all services.
@available(macOS 15.0, iOS 18.0, *)
struct GRPCMethod<RPC: UnaryRPC>: GRPCMethodRow {
    typealias Input = RPC.Input
    typealias Output = RPC.Output
    /// The answer of an authenticated call: the core, the call, the resource id the target read
    /// (empty for collection methods) and the request message.
    typealias Operation = @Sendable (FleetEngineCore, FleetCall, _ id: String, Input) async throws -> Output

    let target: GRPCTarget<Input>
    let body: GRPCBody<Input>
    let operation: Operation

    /// The method `RPC`, whose request names its resource as `target` says and carries what REST
    /// sends as the body as `body` says, answered by `operation`.
    init(_: RPC.Type, _ target: GRPCTarget<Input>, body: GRPCBody<Input> = .none, _ operation: @escaping Operation) {
        self.target = target
        self.body = body
        self.operation = operation
    }

    func register<Transport: ServerTransport>(with router: inout RPCRouter<Transport>, runner: GRPCCallRunner) {
        let descriptor = RPC.descriptor
        router.registerHandler(
            forMethod: descriptor,
            deserializer: ProtobufDeserializer<Input>(),
            serializer: ProtobufSerializer<Output>()
        ) { [target, body, operation] request, _ in
            let response = try await runner.answer(
                ServerRequest(stream: request), method: descriptor.method, target: target.read, body: body.read
            ) { call, id, message in
                try await operation(runner.core, call, id, message)
            }
            return StreamingServerResponse(single: response)
        }
    }
}

/// A unary method as protoc-gen-grpc-swift describes it (its `Method.X` namespaces, which
/// conform with one line each): its descriptor and its message types.
protocol UnaryRPC {
    associatedtype Input: SwiftProtobuf.Message
    associatedtype Output: SwiftProtobuf.Message
    static var descriptor: MethodDescriptor { get }
}

/// A row of a ``GRPCServiceTable``: a method that registers itself with a router.
@available(macOS 15.0, iOS 18.0, *)
protocol GRPCMethodRow: Sendable {
    /// Registers the method with `router`, answered through `runner`.
    func register<Transport: ServerTransport>(with router: inout RPCRouter<Transport>, runner: GRPCCallRunner)
}

/// A gRPC service of the engine as the table of its methods.
@available(macOS 15.0, iOS 18.0, *)
struct GRPCServiceTable: RegistrableRPCService {
    /// The service's methods.
    let methods: [any GRPCMethodRow]
    /// Authentication and answering, shared by every service.
    let runner: GRPCCallRunner

    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        for method in methods { method.register(with: &router, runner: runner) }
    }
}

/// Where a request message names its provider and resource, as gRPC requests carry resource
/// names where REST has a path (see ``ResourceNames``).
struct GRPCTarget<Input>: Sendable {
    /// The provider and the resource's id (empty when the method acts on a collection), or 400.
    let read: @Sendable (Input) throws(APIError) -> (provider: String, id: String)

    /// A resource named by the `name` field: `providers/{provider}/{collection}/{id}`.
    static func resource(_ name: @escaping @Sendable (Input) -> String, in collection: String) -> Self {
        Self { message throws(APIError) in try ResourceNames.parse(name(message), collection: collection) }
    }

    /// A new resource: its provider from the `parent` field (`providers/{provider}`), its id from
    /// the field `id` reads.
    static func creation(parent: @escaping @Sendable (Input) -> String, id: @escaping @Sendable (Input) -> String)
        -> Self
    {
        Self { message throws(APIError) in (try ResourceNames.provider(ofParent: parent(message)), id(message)) }
    }

    /// A collection of a provider, named by the `parent` field: `providers/{provider}`.
    static func collection(_ parent: @escaping @Sendable (Input) -> String) -> Self {
        Self { message throws(APIError) in (try ResourceNames.provider(ofParent: parent(message)), "") }
    }
}

/// What of a request message REST sends as the body, by the method's HTTP rule in Google's
/// protos (`body: "vehicle"`, `body: "*"`, or none): what the call is recorded with.
struct GRPCBody<Input: SwiftProtobuf.Message>: Sendable {
    /// The body of a request message, `nil` for none.
    let read: @Sendable (Input) -> RequestBody?

    /// No body: a Get, a Delete or a List.
    static var none: Self { Self { _ in nil } }

    /// The whole message (`body: "*"`), its resource name (`name`, `parent`) included, which
    /// REST sends in the path instead.
    static var whole: Self { Self { .grpc($0) } }

    /// One field of the message (`body: "vehicle"`).
    static func field(_ field: @escaping @Sendable (Input) -> some SwiftProtobuf.Message) -> Self {
        Self { .grpc(field($0)) }
    }
}
