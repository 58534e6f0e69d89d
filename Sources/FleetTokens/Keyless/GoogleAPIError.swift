import Foundation

/// A refusal or failure of a Google endpoint the keyless signer calls (the metadata server,
/// IAM Credentials), in words that say what to do about it. Never holds a token, an access
/// token or a payload.
public struct GoogleAPIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The endpoint that failed, e.g. `IAM signJwt as fe-driver@my-fleet.iam.gserviceaccount.com`.
    public let call: String
    /// The HTTP status, when an answer came.
    public let httpStatus: Int?
    /// Google's status word (`PERMISSION_DENIED`, `UNAVAILABLE`, …), when the answer had one.
    public let status: String?
    /// What went wrong, with what to do about it where that is known.
    public let message: String

    /// An error of `call`.
    public init(call: String, httpStatus: Int? = nil, status: String? = nil, message: String) {
        self.call = call
        self.httpStatus = httpStatus
        self.status = status
        self.message = message
    }

    /// Whether trying again later may work: no answer, 429 or 5xx.
    public var isTransient: Bool {
        guard let httpStatus else { return true }
        return httpStatus == 429 || httpStatus >= 500
    }

    /// `call failed (HTTP 403 PERMISSION_DENIED): message`.
    public var description: String {
        let answer = [httpStatus.map { "HTTP \($0)" }, status].compactMap { $0 }.joined(separator: " ")
        return "\(call) failed\(answer.isEmpty ? "" : " (\(answer))"): \(message)"
    }

    /// The error of an answer with a status other than 200: Google's JSON error body
    /// (`{"error": {"code", "message", "status"}}`) when it has one.
    static func answer(of call: String, httpStatus: Int, body: Data, hint: String? = nil) -> GoogleAPIError {
        struct Envelope: Decodable {
            struct Body: Decodable {
                let message: String?
                let status: String?
            }
            let error: Body
        }
        let google = try? JSONDecoder().decode(Envelope.self, from: body).error
        let said = google?.message.map { String($0.prefix(300)) } ?? "no Google error body"
        return GoogleAPIError(
            call: call,
            httpStatus: httpStatus,
            status: google?.status,
            message: hint.map { "\(said). \($0)" } ?? said
        )
    }
}
