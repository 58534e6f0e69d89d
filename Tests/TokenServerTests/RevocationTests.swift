import TestSupport
import Testing

@testable import TokenServer

@Suite("Revocation takes effect at once")
struct RevocationTests {
    @Test(
        "unassigning a vehicle stops its tokens; deleting the account ends its sessions",
        arguments: StoreBackend.allCases)
    func revocation(backend: StoreBackend) async throws {
        try await TestServer.serve(backend) { client, _ in
            let session = try await client.enroll(
                "ann", role: "driver", assigned: ["vehicles/v-1/driver", "vehicles/v-2/driver"])
            #expect(try await client.token("driver/v-1", session: session).status == .ok)

            #expect(try await client.admin(.delete, "/v1/admin/vehicles/v-1/driver").status == .noContent)
            try await client.token("driver/v-1", session: session).expectRefusal(.forbidden, "PERMISSION_DENIED")
            #expect(try await client.token("driver/v-2", session: session).status == .ok)

            #expect(try await client.admin(.delete, "/v1/admin/accounts/ann").status == .noContent)
            try await client.token("driver/v-2", session: session).expectRefusal(.unauthorized, "UNAUTHENTICATED")
            try await client.send(.post, "/v1/sessions", json: #"{"username":"ann","password":"correct horse"}"#)
                .expectRefusal(.unauthorized, "UNAUTHENTICATED")
        }
    }

    @Test("reassigning a vehicle moves its tokens to the new driver")
    func reassignment() async throws {
        try await TestServer.serve { client, _ in
            try await client.createAccount("ann", role: "driver")
            try await client.createAccount("bob", role: "driver")
            try await client.assign("vehicles/v-1/driver", to: "ann")
            let ann = try await client.logIn("ann")
            let bob = try await client.logIn("bob")
            #expect(try await client.token("driver/v-1", session: ann).status == .ok)
            try await client.assign("vehicles/v-1/driver", to: "bob")
            try await client.token("driver/v-1", session: ann).expectRefusal(.forbidden, "PERMISSION_DENIED")
            #expect(try await client.token("driver/v-1", session: bob).status == .ok)
        }
    }

    @Test("logging out ends the session; a second logout is refused")
    func logout() async throws {
        try await TestServer.serve { client, _ in
            let first = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            let second = try await client.logIn("ann")
            #expect(try await client.send(.delete, "/v1/sessions/current", bearer: first).status == .noContent)
            try await client.token("driver/v-1", session: first).expectRefusal(.unauthorized, "UNAUTHENTICATED")
            try await client.send(.delete, "/v1/sessions/current", bearer: first).expectRefusal(
                .unauthorized, "UNAUTHENTICATED")
            try await client.send(.delete, "/v1/sessions/current").expectRefusal(.unauthorized, "UNAUTHENTICATED")
            // Other sessions of the same account go on.
            #expect(try await client.token("driver/v-1", session: second).status == .ok)
        }
    }
}
