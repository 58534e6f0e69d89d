import CommandSupport
import FleetAuthServerStorage
import FleetTokens
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

@testable import TokenServer

/// Signing keys rotated with no restart: over the admin API, by the command line on the
/// database, and by a key file put into `keys/`; the replaced key stays published until its
/// tokens expired, then retires.
@Suite("Key rotation")
struct KeyRotationTests {
    @Test(
        "a rotation signs with a new key at once, keeps the old one published while its tokens live, then retires it to keys/retired/",
        arguments: StoreBackend.allCases)
    func rotationOverTheAdminAPI(_ backend: StoreBackend) async throws {
        let clock = TestClock()
        var options = TestServer.options(clock: clock)
        options.keyOverlap = .seconds(60)
        try await TestServer.serve(backend, options: options) { client, server in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            let before = try await Self.keyID(of: client.token("driver/v-1", session: session))
            let rotated = try await client.admin(.post, "/v1/admin/keys/driver:rotate")
            #expect(rotated.status == .ok, "\(String(buffer: rotated.body))")
            let newKey = try #require((try rotated.json()["key"] as? [String: Any])?["kid"] as? String)
            #expect(newKey != before)
            #expect(!String(buffer: rotated.body).contains("PRIVATE KEY"), "no private half in the answer")

            // The new key signs and is published; the old one stays published.
            let after = try await client.token("driver/v-1", session: session)
            #expect(try Self.keyID(of: after) == newKey)
            #expect(try await Self.publishedKeyIDs(client).isSuperset(of: [before, newKey]))
            _ = try after.verifiedToken(try await verifier(from: client))
            let keys = server.configuration.keysDirectory
            #expect(try ServiceAccountKey(contentsOf: keys + "/driver.json").privateKeyID == newKey)
            #expect(try ServiceAccountKey(contentsOf: keys + "/driver.\(before).json").privateKeyID == before)

            // Until the old key's last token (1800 s) and the overlap (60 s) have passed.
            clock.advance(by: 1800 + 59)
            try await Task.sleep(for: .seconds(2))
            #expect(
                try await Self.publishedKeyIDs(client).contains(before), "published while a token it signed may live")
            clock.advance(by: 1)
            try await waitUntil("the old key retires", timeout: .seconds(10)) {
                try await !Self.publishedKeyIDs(client).contains(before)
            }
            try await waitUntil("its file moves to keys/retired/", timeout: .seconds(10)) {
                FileManager.default.fileExists(atPath: keys + "/retired/driver.\(before).json")
                    && !FileManager.default.fileExists(atPath: keys + "/driver.\(before).json")
            }
            let listed = try await client.admin(.get, "/v1/admin/keys")
            let states = try #require(listed.json()["keys"] as? [[String: Any]])
            #expect(states.first { $0["kid"] as? String == before }?["state"] as? String == "retired")
            #expect(states.first { $0["kid"] as? String == newKey }?["state"] as? String == "signing")
            #expect(!String(buffer: listed.body).contains("PRIVATE KEY"))

            // What cannot be rotated is refused clearly.
            let unknown = try await client.admin(.post, "/v1/admin/keys/pilot:rotate")
            #expect(try unknown.expectRefusal(.badRequest, "INVALID_ARGUMENT").contains("not a role"))
            #expect(try await client.send(.post, "/v1/admin/keys/driver:rotate").status == .unauthorized)
        }
    }

    @Test("a key file put into keys/ signs after SIGHUP's reading; one of another project is left unused")
    func keyFilesAreAdded() async throws {
        try await TestServer.serve(.sqlite) { client, server in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            let before = try await Self.keyID(of: client.token("driver/v-1", session: session))
            let keys = server.configuration.keysDirectory
            let stranger = try ServiceAccountKey.generate(projectID: "another-project", role: .driverSDKUser)
            try stranger.write(to: keys + "/driver.stranger.json")
            await server.server.keyRing.importKeyFiles()
            #expect(
                try await Self.keyID(of: client.token("driver/v-1", session: session)) == before,
                "another project's key is not used")

            let made = try ServiceAccountKey.generate(projectID: TestKeys.project, role: .driverSDKUser)
            try made.write(to: keys + "/driver.from-iam.json")
            await server.server.keyRing.importKeyFiles()
            #expect(try await Self.keyID(of: client.token("driver/v-1", session: session)) == made.privateKeyID)
            #expect(try await Self.publishedKeyIDs(client).isSuperset(of: [before, made.privateKeyID]))
            #expect(try ServiceAccountKey(contentsOf: keys + "/driver.json").privateKeyID == made.privateKeyID)
            #expect(
                !FileManager.default.fileExists(atPath: keys + "/driver.from-iam.json"),
                "the added file took its place as driver.json")
        }
    }

    @Test(
        "replicas on one PostgreSQL: a rotation on one signs and is published on the other within seconds, from its own keys/ folder"
    )
    func rotationReachesEveryReplica() async throws {
        try await TestDatabase.with(.postgres) { database in
            var options = TestServer.options()
            options.tokenRequestsPerMinute = 0  // the test asks again and again until the new key signs
            let first = try await TestServer.open(
                dataDirectory: database.folder + "/one", database: database.location, options: options)
            let second = try await TestServer.open(
                dataDirectory: database.folder + "/two", database: database.location, options: options)
            try FileManager.default.copyItem(
                atPath: first.configuration.adminKeyPath, toPath: second.configuration.adminKeyPath)
            try await first.serve { one in
                try await second.serve { two in
                    let session = try await one.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
                    let rotated = try await one.admin(.post, "/v1/admin/keys/driver:rotate")
                    let newKey = try #require((try rotated.json()["key"] as? [String: Any])?["kid"] as? String)
                    try await waitUntil("the other replica signs with the new key", timeout: .seconds(10)) {
                        try await Self.keyID(of: two.token("driver/v-1", session: session)) == newKey
                    }
                    #expect(try await Self.publishedKeyIDs(two).contains(newKey))
                    try await waitUntil("and writes it to its keys/", timeout: .seconds(10)) {
                        (try? ServiceAccountKey(contentsOf: second.configuration.keysDirectory + "/driver.json"))?
                            .privateKeyID == newKey
                    }
                }
            }
        }
    }

    @Test("fleetauth keys rotate on the database: a running server signs with the new key within seconds")
    func rotationByTheCommandLine() async throws {
        var options = TestServer.options()
        options.tokenRequestsPerMinute = 0  // the test asks again and again until the new key signs
        try await TestServer.serve(.sqlite, options: options) { client, server in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            let before = try await Self.keyID(of: client.token("driver/v-1", session: session))
            let rotated = try await ChildProcess.runFleetauth([
                "keys", "rotate", "driver", "--data-dir", server.configuration.dataDirectory,
            ])
            #expect(rotated.succeeded, "\(rotated.output)")
            try await waitUntil("the server signs with the new key", timeout: .seconds(10)) {
                try await Self.keyID(of: client.token("driver/v-1", session: session)) != before
            }
            let listed = try await ChildProcess.runFleetauth([
                "keys", "list", "--data-dir", server.configuration.dataDirectory,
            ])
            let line = listed.output.split(separator: "\n").first { $0.contains(before) } ?? ""
            #expect(
                !line.isEmpty && !line.contains("signing"),
                "the replaced key is listed, no longer signing: \(listed.output)")
            let keyless = try await ChildProcess.runFleetauth([
                "keys", "rotate", "pilot", "--data-dir", server.configuration.dataDirectory,
            ])
            #expect(!keyless.succeeded)

            // --print-upload makes a key of the same account without putting it to use, and says
            // how to upload it and add it.
            let signing = try await Self.keyID(of: client.token("driver/v-1", session: session))
            let out = server.configuration.dataDirectory + "/for-upload.json"
            let upload = try await ChildProcess.runFleetauth([
                "keys", "rotate", "driver", "--print-upload", "--out", out, "--data-dir",
                server.configuration.dataDirectory,
            ])
            #expect(upload.succeeded, "\(upload.output)")
            let made = try ServiceAccountKey(contentsOf: out)
            #expect(made.clientEmail == TestKeys.driver.clientEmail)
            #expect(try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int == 0o600)
            #expect(
                upload.output.contains("gcloud iam service-accounts keys upload")
                    && upload.output.contains("--iam-account=\(made.clientEmail)"))
            #expect(!upload.output.contains("PRIVATE KEY"), "the key itself is not printed")
            try await Task.sleep(for: .milliseconds(1500))
            #expect(try await Self.keyID(of: client.token("driver/v-1", session: session)) == signing, "not put to use")
            #expect(try await !Self.publishedKeyIDs(client).contains(made.privateKeyID))
        }
    }

    /// The `kid` of a token answer's token.
    static func keyID(of answer: TestResponse) throws -> String {
        try #require(answer.status == .ok, "\(String(buffer: answer.body))")
        let token = try #require(try answer.json()["token"] as? String)
        return try #require(try TokenInspection(token: token).header.keyID)
    }

    /// The key ids the server's JWKS publishes.
    static func publishedKeyIDs(_ client: Client) async throws -> Set<String> {
        let jwks = try JSONWebKeySet(json: Data(buffer: try await client.send(.get, "/.well-known/jwks.json").body))
        return Set(jwks.keys.compactMap(\.keyID))
    }
}
