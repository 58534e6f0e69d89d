import NIOHTTP1
import Testing

/// One request of a table-driven test, and the answer it must get.
struct RequestCase: Sendable, CustomTestStringConvertible {
    let name: String
    let method: HTTPMethod
    let path: String
    /// The `Authorization` header, or `nil` for none; made when the test runs, since tokens expire.
    let authorization: @Sendable () -> String?
    let body: String?
    let status: Int
    /// A phrase the error message must contain.
    let phrase: String?

    var testDescription: String { name }

    /// Google's status name for each HTTP status the engine answers with.
    static let statusNames = [
        400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
        409: "ALREADY_EXISTS",
    ]

    /// Sends the request and checks the status and, for a refusal, Google's error body: its
    /// code, its status name and a message with the phrase. Returns the answer and the
    /// `Authorization` header sent.
    @discardableResult
    func check(on client: TestClient) async throws -> (response: TestResponse, authorization: String?) {
        let header = authorization()
        let response = try await client.send(method, path, authorization: header, body: body)
        #expect(response.status == status, "\(response)")
        if status >= 400 {
            #expect(response.errorCode == status)
            #expect(response.errorStatus == Self.statusNames[status])
            #expect(!response.errorMessage.isEmpty)
            if let phrase { #expect(response.errorMessage.contains(phrase), "\(response.errorMessage)") }
        }
        return (response, header)
    }
}
