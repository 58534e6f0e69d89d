import FleetAuthServerHTTP
import GRPCCore

/// A refusal thrown by a gRPC method becomes the gRPC status of the same name, with the same
/// message as REST's.
@available(macOS 15.0, iOS 18.0, *)
extension APIError: RPCErrorConvertible {
    /// The gRPC status code of the same name.
    package var rpcErrorCode: RPCError.Code {
        switch code {
        case .invalidArgument: .invalidArgument
        case .unauthenticated: .unauthenticated
        case .permissionDenied: .permissionDenied
        case .notFound: .notFound
        case .alreadyExists: .alreadyExists
        case .failedPrecondition: .failedPrecondition
        case .resourceExhausted: .resourceExhausted
        case .unimplemented: .unimplemented
        case .internal: .internalError
        case .unavailable: .unavailable
        }
    }

    /// The message, as REST sends it.
    package var rpcErrorMessage: String { message }
}
