import Foundation
import HTTPTypes
import Hummingbird

/// A refusal in Google's JSON error shape,
/// `{"error":{"code":403,"status":"PERMISSION_DENIED","message":"…"}}`.
///
/// Throw it from a route handler; Hummingbird turns it into the response. Messages are shown
/// to the caller, so they must say which rule refused the request and never hold a secret.
package struct APIError: HTTPResponseError, Sendable, Equatable, CustomStringConvertible {
    /// The Google status names this API uses, each with its HTTP status.
    package enum Code: String, Sendable, Hashable, CaseIterable {
        /// 400: the request is malformed (bad JSON, unknown field, bad id, too large).
        case invalidArgument = "INVALID_ARGUMENT"
        /// 401: no credentials, or credentials that are not valid.
        case unauthenticated = "UNAUTHENTICATED"
        /// 403: valid credentials that do not cover this request.
        case permissionDenied = "PERMISSION_DENIED"
        /// 404: no such resource (or route).
        case notFound = "NOT_FOUND"
        /// 409: the resource already exists.
        case alreadyExists = "ALREADY_EXISTS"
        /// 400: the resource is not in a state that allows the request (e.g. a vehicle with
        /// unfinished trips cannot be deleted).
        case failedPrecondition = "FAILED_PRECONDITION"
        /// 429: too many requests; retry after `Retry-After` seconds.
        case resourceExhausted = "RESOURCE_EXHAUSTED"
        /// 501: the server does not serve this method; sent as 405 with `Allow` when the path
        /// takes other methods (see ``APIError/methodNotAllowed(_:allowed:)``).
        case unimplemented = "UNIMPLEMENTED"
        /// 500: a failure on the server's side; the message is generic.
        case `internal` = "INTERNAL"
        /// 503: the server cannot serve now (e.g. shutting down, database unreachable).
        case unavailable = "UNAVAILABLE"

        /// The HTTP status this code is sent with.
        package var httpStatus: HTTPResponse.Status {
            switch self {
            case .invalidArgument: .badRequest
            case .unauthenticated: .unauthorized
            case .permissionDenied: .forbidden
            case .notFound: .notFound
            case .alreadyExists: .conflict
            case .failedPrecondition: .badRequest
            case .resourceExhausted: .tooManyRequests
            case .unimplemented: .notImplemented
            case .internal: .internalServerError
            case .unavailable: .serviceUnavailable
            }
        }
    }

    /// The message of every ``Code/internal`` error: details stay in the server's log.
    package static let internalMessage = "internal error; the server's log has the details"

    /// The kind of refusal.
    package let code: Code
    /// What was refused and why, for the caller.
    package let message: String
    /// Whole seconds before retrying, sent as `Retry-After` (429 and 503 only).
    package let retryAfterSeconds: Int?
    /// The HTTP status sent: ``code``'s own, or a finer one of the same meaning (405, 431).
    package let status: HTTPResponse.Status
    /// The methods the path takes, sent as `Allow` (405 only).
    package let allowedMethods: [HTTPRequest.Method]?

    /// An error of `code` with `message`, sent with `status` (by default the code's own);
    /// `retryAfter` (rounded up to whole seconds, at least 1) is sent as `Retry-After`.
    package init(_ code: Code, _ message: String, status: HTTPResponse.Status? = nil, retryAfter: Duration? = nil) {
        self.init(code, message, status: status, retryAfter: retryAfter, allowedMethods: nil)
    }

    private init(
        _ code: Code, _ message: String, status: HTTPResponse.Status?, retryAfter: Duration?,
        allowedMethods: [HTTPRequest.Method]?
    ) {
        self.code = code
        self.message = code == .internal ? Self.internalMessage : message
        self.status = status ?? code.httpStatus
        self.allowedMethods = allowedMethods
        self.retryAfterSeconds = retryAfter.map { duration in
            let (seconds, attoseconds) = duration.components
            return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
        }
    }

    /// 400 `INVALID_ARGUMENT`.
    package static func invalidArgument(_ message: String) -> APIError { APIError(.invalidArgument, message) }
    /// 401 `UNAUTHENTICATED`.
    package static func unauthenticated(_ message: String) -> APIError { APIError(.unauthenticated, message) }
    /// 403 `PERMISSION_DENIED`.
    package static func permissionDenied(_ message: String) -> APIError { APIError(.permissionDenied, message) }
    /// 404 `NOT_FOUND`.
    package static func notFound(_ message: String) -> APIError { APIError(.notFound, message) }
    /// 409 `ALREADY_EXISTS`.
    package static func alreadyExists(_ message: String) -> APIError { APIError(.alreadyExists, message) }
    /// 400 `FAILED_PRECONDITION`.
    package static func failedPrecondition(_ message: String) -> APIError { APIError(.failedPrecondition, message) }
    /// 429 `RESOURCE_EXHAUSTED` with `Retry-After`.
    package static func resourceExhausted(_ message: String, retryAfter: Duration) -> APIError {
        APIError(.resourceExhausted, message, retryAfter: retryAfter)
    }
    /// 405 `UNIMPLEMENTED` with `Allow`: the path exists, but not with `method`.
    package static func methodNotAllowed(_ method: HTTPRequest.Method, allowed: [HTTPRequest.Method]) -> APIError {
        let names = allowed.map(\.rawValue).joined(separator: ", ")
        return APIError(
            .unimplemented, "this path does not take \(method.rawValue); it takes \(names)", status: .methodNotAllowed,
            retryAfter: nil,
            allowedMethods: allowed)
    }
    /// 500 `INTERNAL` with the generic message.
    package static var `internal`: APIError { APIError(.internal, internalMessage) }

    /// `INVALID_ARGUMENT: message`, for logs.
    package var description: String { "\(code.rawValue): \(message)" }

    /// The JSON body, `Content-Type: application/json`, and `Retry-After` and `Allow` when set.
    package func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: jsonBody())))
    }

    /// The response's headers: JSON, never cached, and `Retry-After` and `Allow` when set.
    package var headers: HTTPFields {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        if let retryAfterSeconds { headers[.retryAfter] = String(retryAfterSeconds) }
        if let allowedMethods { headers[.allow] = allowedMethods.map(\.rawValue).joined(separator: ", ") }
        return headers
    }

    /// `{"error":{"code":…,"status":"…","message":"…"}}` as UTF-8 bytes.
    package func jsonBody() -> Data {
        let body = Envelope(error: .init(code: Int(status.code), status: code.rawValue, message: message))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a struct of an integer and two strings cannot fail.
        return (try? encoder.encode(body)) ?? Data()
    }

    private struct Envelope: Encodable {
        struct Body: Encodable {
            let code: Int
            let status: String
            let message: String
        }

        let error: Body
    }
}
