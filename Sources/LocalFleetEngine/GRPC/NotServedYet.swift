import GRPCCore

/// The refusal of a method of Google's API that the local Fleet Engine does not serve yet:
/// `UNIMPLEMENTED`, naming the method.
@available(macOS 15.0, iOS 18.0, *)
struct NotServedYet: RPCErrorConvertible, Error {
    /// The method's name, e.g. `ListVehicles`.
    let method: String

    var rpcErrorCode: RPCError.Code { .unimplemented }
    var rpcErrorMessage: String { "the local Fleet Engine does not serve \(method) yet" }
}
