import FleetAuthServerHTTP
import FleetTokens
import Foundation
import SQLKit
import TestSupport
import Testing

@testable import TokenServer

@Suite("Operations: first start, public routes, metrics, logs")
struct OperationsTests {
    private func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test("first start makes one key per role and the admin key, all mode 0600; the database holds only the key's hash")
    func firstStart() async throws {
        try await TestDatabase.with(.sqlite) { database in
            let configuration = TokenServerConfiguration(
                dataDirectory: database.folder + "/fresh", projectID: "fresh-project", options: TestServer.options())
            let server = try await TokenServer.open(configuration)
            for role in FleetEngineRole.allCases {
                let path = "\(configuration.keysDirectory)/\(role.shortName).json"
                #expect(try mode(path) == 0o600, "\(path)")
                let key = try ServiceAccountKey(contentsOf: path)
                #expect(key.clientEmail == "\(role.accountID)@fresh-project.iam.gserviceaccount.com")
            }
            #expect(try mode(configuration.adminKeyPath) == 0o600)
            #expect(try mode(configuration.dataDirectory + "/" + TokenServerConfiguration.sqliteFileName) == 0o600)
            #expect(try mode(configuration.dataDirectory) == 0o700)
            let adminKey = try String(contentsOfFile: configuration.adminKeyPath, encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines)
            #expect(adminKey.hasPrefix("faa_"))
            #expect(try await server.store.adminKeyHash() == SecretToken.hash(adminKey))
            await server.shutdown()
            let sqlite = try Data(
                contentsOf: URL(fileURLWithPath: database.folder + "/fresh/" + TokenServerConfiguration.sqliteFileName))
            #expect(sqlite.range(of: Data(adminKey.utf8)) == nil)
        }
    }

    @Test("JWKS has every role's public key and no private part; healthz; the served OpenAPI is the repository's")
    func publicRoutes() async throws {
        try await TestServer.serve { client, _ in
            let jwks = try await client.send(.get, "/.well-known/jwks.json")
            #expect(jwks.status == .ok)
            let set = try JSONWebKeySet(json: Data(buffer: jwks.body))
            #expect(Set(set.keys.compactMap(\.role)) == Set(FleetEngineRole.allCases.map(\.rawValue)))
            let text = String(buffer: jwks.body)
            for field in ["\"d\"", "\"p\"", "\"q\"", "private"] { #expect(!text.contains(field)) }

            let health = try await client.send(.get, "/healthz")
            #expect(health.status == .ok)
            #expect(try health.json()["status"] as? String == "ok")

            let openapi = try await client.send(.get, "/openapi.yaml")
            let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "../../docs/token-server.openapi.yaml")
            #expect(String(buffer: openapi.body) == (try String(contentsOf: repository, encoding: .utf8)))
            #expect(String(buffer: openapi.body).contains("/v1/tokens/driver/{vehicleId}"))
        }
    }

    @Test("metrics count tokens by kind, latency, refusals by reason and logins")
    func metrics() async throws {
        try await TestServer.serve { client, _ in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            _ = try await client.send(.post, "/v1/sessions", json: #"{"username":"ann","password":"wrong guess"}"#)
            for _ in 0..<3 { _ = try await client.token("driver/v-1", session: session) }
            _ = try await client.token("driver/v-2", session: session)
            _ = try await client.token("driver/*", session: session)
            _ = try await client.token("driver/v-1", session: nil)
            let text = String(buffer: try await client.send(.get, "/metrics").body)
            #expect(text.contains(#"fleetauth_tokens_issued_total{kind="driver"} 3"#))
            #expect(text.contains(#"fleetauth_token_refusals_total{reason="not_assigned"} 1"#))
            #expect(text.contains(#"fleetauth_token_refusals_total{reason="bad_id"} 1"#))
            #expect(text.contains(#"fleetauth_token_refusals_total{reason="unauthenticated"} 1"#))
            #expect(text.contains(#"fleetauth_logins_total{method="password",result="success"} 1"#))
            #expect(text.contains(#"fleetauth_logins_total{method="password",result="failure"} 1"#))
            #expect(text.contains("fleetauth_token_issue_duration_seconds_count 3"))
        }
    }

    @Test("no password, session token, admin key or signed token appears in any log line")
    func noSecretsInLogs() async throws {
        let recorder = LogRecorder()
        try await TestDatabase.with(.sqlite) { database in
            let server = try await TestServer.open(
                dataDirectory: database.folder + "/data", database: database.location, logger: recorder.logger)
            let adminKey = try server.adminKey
            let secrets = try await server.serve { client in
                try await client.createAccount("ann", role: "driver", password: "p4ssw0rd-ann")
                try await client.assign("vehicles/v-1/driver", to: "ann")
                _ = try await client.send(.post, "/v1/sessions", json: #"{"username":"ann","password":"wr0ng-guess"}"#)
                let session = try await client.logIn("ann", password: "p4ssw0rd-ann")
                let token = try #require(
                    try await client.token("driver/v-1", session: session).json()["token"] as? String)
                _ = try await client.token("driver/v-2", session: session)
                _ = try await client.send(.delete, "/v1/sessions/current", bearer: session)
                return [session, token, String(token.split(separator: ".")[2])]
            }
            let logs = recorder.text
            #expect(logs.contains("token issued") || logs.contains("login"))
            for secret in secrets + [adminKey, "p4ssw0rd-ann", "wr0ng-guess"] {
                #expect(!logs.contains(secret), "a secret was logged")
            }
        }
    }
}
