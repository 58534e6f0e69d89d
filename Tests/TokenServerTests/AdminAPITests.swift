import Foundation
import Testing

@testable import TokenServer

@Suite("Admin API and bad input")
struct AdminAPITests {
    @Test("the admin API needs the admin key; a session or a wrong key is refused")
    func adminKey() async throws {
        try await TestServer.serve { client, _ in
            let body = #"{"username":"ann","password":"correct horse","role":"driver"}"#
            try await client.send(.post, "/v1/admin/accounts", json: body).expectRefusal(
                .unauthorized, "UNAUTHENTICATED")
            try await client.send(.post, "/v1/admin/accounts", bearer: "faa_wrong", json: body).expectRefusal(
                .unauthorized, "UNAUTHENTICATED")
            try await client.createAccount("ann", role: "driver")
            let session = try await client.logIn("ann")
            try await client.send(.delete, "/v1/admin/accounts/ann", bearer: session).expectRefusal(
                .unauthorized, "UNAUTHENTICATED")
        }
    }

    @Test("creating accounts: clear 400s, 409 for a duplicate, the password never echoed")
    func accountRules() async throws {
        try await TestServer.serve { client, _ in
            let cases: [(body: String, message: String)] = [
                (#"{"username":"ann","password":"correct horse","role":"pilot"}"#, "unknown role \"pilot\""),
                (#"{"username":"ann","password":"short","role":"driver"}"#, "at least 8 characters"),
                (#"{"username":"a n","password":"correct horse","role":"driver"}"#, "username may only contain"),
                (
                    #"{"username":"ann","password":"correct horse","role":"driver","admin":true}"#,
                    "unknown field \"admin\""
                ),
                (#"{"username":"ann","role":"driver"}"#, "give a password, an identity (issuer and subject), or both"),
                (#"{"username":"ann","password":42,"role":"driver"}"#, "field \"password\" must be a string"),
                (#"{"username":"ann","password":"correct horse""#, "not valid JSON"),
                (#"["ann"]"#, "must be a JSON object"),
            ]
            for (body, message) in cases {
                let refusal = try await client.admin(.post, "/v1/admin/accounts", json: body).expectRefusal(
                    .badRequest, "INVALID_ARGUMENT")
                #expect(refusal.contains(message), "\(body) → \(refusal)")
                #expect(!refusal.contains("correct horse"))
            }
            let big =
                #"{"username":"ann","password":""# + String(repeating: "x", count: 70_000) + #"","role":"driver"}"#
            try await client.admin(.post, "/v1/admin/accounts", json: big).expectRefusal(
                .badRequest, "INVALID_ARGUMENT")
            try await client.createAccount("ann", role: "driver")
            try await client.admin(
                .post, "/v1/admin/accounts", json: #"{"username":"ann","password":"another pass","role":"consumer"}"#
            )
            .expectRefusal(.conflict, "ALREADY_EXISTS")
            try await client.admin(.delete, "/v1/admin/accounts/nobody").expectRefusal(.notFound, "NOT_FOUND")
        }
    }

    @Test("assignments: the role must fit, the account exist, the id be plain")
    func assignmentRules() async throws {
        try await TestServer.serve { client, _ in
            try await client.createAccount("cat", role: "consumer")
            let wrongRole = try await client.admin(.put, "/v1/admin/vehicles/v-1/driver", json: #"{"username":"cat"}"#)
                .expectRefusal(.badRequest, "INVALID_ARGUMENT")
            #expect(wrongRole.contains("only driver accounts can be assigned to a vehicle"))
            try await client.admin(.put, "/v1/admin/trips/t-1/consumer", json: #"{"username":"zed"}"#).expectRefusal(
                .notFound, "NOT_FOUND")
            for id in ["*", "%2A", "a%3Ab", String(repeating: "x", count: 65)] {
                try await client.admin(.put, "/v1/admin/trips/\(id)/consumer", json: #"{"username":"cat"}"#)
                    .expectRefusal(.badRequest, "INVALID_ARGUMENT")
            }
            try await client.admin(.put, "/v1/admin/trips/t-1/consumer", json: #"{"user":"cat"}"#).expectRefusal(
                .badRequest, "INVALID_ARGUMENT")
            try await client.admin(.delete, "/v1/admin/trips/t-1/consumer").expectRefusal(.notFound, "NOT_FOUND")
            let assigned = try await client.admin(.put, "/v1/admin/trips/t-1/consumer", json: #"{"username":"cat"}"#)
            #expect(
                try assigned.json() as NSDictionary == [
                    "kind": "trip", "resourceId": "t-1", "username": "cat", "path": "trips/t-1/consumer",
                ] as NSDictionary)
        }
    }

    @Test("bad login bodies are 400s; unknown routes are JSON 404s, known paths asked the wrong way JSON 405s")
    func badRequests() async throws {
        try await TestServer.serve { client, _ in
            try await client.send(.post, "/v1/sessions", json: #"{"username":"ann"}"#).expectRefusal(
                .badRequest, "INVALID_ARGUMENT")
            try await client.send(.post, "/v1/sessions", json: #"{"username":"ann","password":"x","otp":1}"#)
                .expectRefusal(.badRequest, "INVALID_ARGUMENT")
            try await client.send(.post, "/v1/sessions", json: "").expectRefusal(.badRequest, "INVALID_ARGUMENT")
            try await client.send(.get, "/v1/tokens/pilot/x").expectRefusal(.notFound, "NOT_FOUND")
            try await client.send(.get, "/v1/admin/vehicles/v-1/driver").expectRefusal(
                .methodNotAllowed, "UNIMPLEMENTED")
        }
    }
}
