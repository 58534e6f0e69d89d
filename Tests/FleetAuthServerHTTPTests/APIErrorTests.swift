import Foundation
import Testing

@testable import FleetAuthServerHTTP

@Suite("APIError")
struct APIErrorTests {
    @Test("the body has Google's shape")
    func bodyShape() throws {
        let body = APIError.permissionDenied("vehicle \"v2\" is not assigned to you").jsonBody()
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(object.count == 1)
        #expect(error["code"] as? Int == 403)
        #expect(error["status"] as? String == "PERMISSION_DENIED")
        #expect(error["message"] as? String == "vehicle \"v2\" is not assigned to you")
    }

    @Test(
        "each code has its HTTP status",
        arguments: [
            (APIError.Code.invalidArgument, 400), (.unauthenticated, 401), (.permissionDenied, 403), (.notFound, 404),
            (.alreadyExists, 409), (.resourceExhausted, 429), (.internal, 500), (.unavailable, 503),
        ])
    func statuses(code: APIError.Code, status: Int) {
        #expect(Int(APIError(code, "m").status.code) == status)
    }

    @Test("Retry-After is whole seconds, rounded up, at least one")
    func retryAfter() {
        #expect(APIError.resourceExhausted("slow down", retryAfter: .milliseconds(1500)).retryAfterSeconds == 2)
        #expect(APIError.resourceExhausted("slow down", retryAfter: .seconds(30)).retryAfterSeconds == 30)
        #expect(APIError.resourceExhausted("slow down", retryAfter: .zero).retryAfterSeconds == 1)
        #expect(APIError.notFound("x").retryAfterSeconds == nil)
    }

    @Test("an internal error never carries its message")
    func internalIsGeneric() {
        let error = APIError(.internal, "password=hunter2 failed")
        #expect(error.message == APIError.internalMessage)
        #expect(!String(decoding: error.jsonBody(), as: UTF8.self).contains("hunter2"))
    }
}
