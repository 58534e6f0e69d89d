import FleetAuthServerStorage
import Foundation
import Hummingbird
import SQLKit
import TestSupport
import Testing

@testable import TokenServer

@Suite("Accounts linked to an OpenID Connect identity")
struct IdentityAccountTests {
    static let issuer = "https://securetoken.google.com/fleet-project"

    @Test("the admin API links an identity, with or without a password, and checks what it is given")
    func adminAPI() async throws {
        try await TestServer.serve { client, _ in
            let linked = try await client.admin(
                .post, "/v1/admin/accounts",
                json: #"{"username":"ann","role":"driver","identity":{"issuer":"\#(Self.issuer)","subject":"uid-1"}}"#)
            #expect(linked.status == .created)
            let identity = try #require(try linked.json()["identity"] as? [String: String])
            #expect(identity == ["issuer": Self.issuer, "subject": "uid-1"])

            let both = try await client.admin(
                .post, "/v1/admin/accounts",
                json:
                    #"{"username":"bob","role":"driver","password":"correct horse","identity":{"issuer":"\#(Self.issuer)","subject":"uid-2"}}"#
            )
            #expect(both.status == .created)
            _ = try await client.logIn("bob")

            let refusals: [(body: String, status: HTTPResponse.Status, message: String)] = [
                (
                    #"{"username":"cy","role":"driver"}"#, .badRequest,
                    "give a password, an identity (issuer and subject), or both"
                ),
                (
                    #"{"username":"cy","role":"driver","identity":{"issuer":"\#(Self.issuer)","subject":"uid-1"}}"#,
                    .conflict,
                    "another account is linked to subject \"uid-1\" of \(Self.issuer) already"
                ),
                (
                    #"{"username":"cy","role":"driver","identity":{"issuer":"http://idp.example.com","subject":"x"}}"#,
                    .badRequest,
                    "identity issuer \"http://idp.example.com\" must be an https URL (http only on loopback)"
                ),
                (
                    #"{"username":"cy","role":"driver","identity":{"issuer":"\#(Self.issuer)","subject":""}}"#,
                    .badRequest, "identity subject is empty"
                ),
                (
                    #"{"username":"cy","role":"driver","identity":{"issuer":"\#(Self.issuer)","subject":"x","email":"a@b"}}"#,
                    .badRequest,
                    "field \"identity.email\" is not valid"
                ),
                (
                    #"{"username":"cy","role":"driver","identity":{"issuer":"\#(Self.issuer)"}}"#, .badRequest,
                    "missing field \"identity.subject\""
                ),
            ]
            for refused in refusals {
                let response = try await client.admin(.post, "/v1/admin/accounts", json: refused.body)
                #expect(response.status == refused.status, "\(refused.body)")
                #expect(try response.error().message == refused.message)
            }
            // The conflict left no account behind.
            try await client.admin(.delete, "/v1/admin/accounts/cy").expectRefusal(.notFound, "NOT_FOUND")
        }
    }

    @Test("the store keeps, lists and deletes identities", arguments: StoreBackend.allCases)
    func store(backend: StoreBackend) async throws {
        try await TestDatabase.with(backend) { database in
            let store = try await TokenServerStore.open(database.location, logger: TestDatabase.logger)
            let identity = LinkedIdentity(issuer: Self.issuer, subject: "uid-1")
            try await store.createAccount(
                Account(username: "ann", role: .driver, createdAt: 1, identity: identity), passwordHash: nil)
            try await store.createAccount(
                Account(username: "bob", role: .consumer, createdAt: 2), passwordHash: "$2b$04$hash")
            #expect(try await store.account(username: "ann")?.identity == identity)
            #expect(try await store.accounts().map(\.identity) == [identity, nil])
            #expect(try await store.passwordHash(username: "ann") == nil, "an identity-only account has no password")
            #expect(try await store.passwordHash(username: "bob") == "$2b$04$hash")
            await #expect(throws: StoreError.identityTaken(identity)) {
                try await store.createAccount(
                    Account(username: "cat", role: .driver, createdAt: 3, identity: identity), passwordHash: nil)
            }
            #expect(try await store.account(username: "cat") == nil, "the refused link took its account with it")

            try await store.assign(Resource(.vehicle, id: "v-1"), to: "ann", at: 4)
            let grant = try #require(try await store.identityGrant(identity, resource: Resource(.vehicle, id: "v-1")))
            #expect(grant == SessionGrant(username: "ann", role: .driver, isAssigned: true))
            #expect(
                try await store.identityGrant(identity, resource: Resource(.vehicle, id: "v-2"))?.isAssigned == false)
            #expect(
                try await store.identityGrant(
                    LinkedIdentity(issuer: Self.issuer + "/", subject: "uid-1"), resource: nil) == nil)

            #expect(try await store.deleteAccount(username: "ann"))
            #expect(try await store.identityGrant(identity, resource: nil) == nil)
            await store.close()
        }
    }

    @Test("a database made before identities existed is upgraded on open", arguments: StoreBackend.allCases)
    func upgrade(backend: StoreBackend) async throws {
        try await TestDatabase.with(backend) { database in
            let old = try await ServerDatabase.open(database.location, logger: TestDatabase.logger)
            try await old.sql.raw(
                """
                CREATE TABLE token_server_accounts (
                    username TEXT PRIMARY KEY, role TEXT NOT NULL, password_hash TEXT NOT NULL, created_at BIGINT NOT NULL
                )
                """
            ).run()
            try await old.sql.raw("INSERT INTO token_server_accounts VALUES ('ann', 'driver', 'old-hash', 1)").run()
            await old.shutdown()

            let store = try await TokenServerStore.open(database.location, logger: TestDatabase.logger)
            #expect(try await store.account(username: "ann") == Account(username: "ann", role: .driver, createdAt: 1))
            let identity = LinkedIdentity(issuer: Self.issuer, subject: "uid-9")
            try await store.createAccount(
                Account(username: "bea", role: .driver, createdAt: 2, identity: identity), passwordHash: nil)
            #expect(try await store.identityGrant(identity, resource: nil)?.username == "bea")
            await store.close()
        }
    }

    @Test("issuer settings are checked")
    func settings() {
        #expect(OIDCSettings().problem == nil, "no issuers: off")
        #expect(OIDCSettings(issuers: ["https://a.example"], audiences: ["app"]).problem == nil)
        #expect(OIDCSettings(issuers: ["http://127.0.0.1:9000/realms/x"], audiences: ["app"]).problem == nil)
        #expect(OIDCSettings(issuers: ["https://a.example"]).problem?.contains("at least one audience") == true)
        #expect(OIDCSettings(audiences: ["app"]).problem?.contains("no issuer") == true)
        #expect(OIDCSettings(issuers: ["http://a.example"], audiences: ["app"]).problem?.contains("https") == true)
        #expect(OIDCSettings(issuers: ["a.example"], audiences: ["app"]).problem?.contains("absolute URL") == true)
        #expect(OIDCSettings(issuers: ["https://a.example?x=1"], audiences: ["app"]).problem?.contains("query") == true)
        #expect(
            OIDCSettings.discoveryURL(of: "https://tenant.auth0.com/")
                == "https://tenant.auth0.com/.well-known/openid-configuration")
        #expect(
            OIDCSettings.discoveryURL(of: "https://kc.example/realms/r")
                == "https://kc.example/realms/r/.well-known/openid-configuration")
    }
}
