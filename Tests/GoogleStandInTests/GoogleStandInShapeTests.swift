import FleetAuthCodecs
import FleetTokens
import Foundation
import GoogleStandIn
import Hummingbird
import HummingbirdTesting
import Testing

/// The Google stand-in answers in Google's documented shapes: field names, headers, error
/// bodies.
@Suite("Google stand-in shapes")
struct GoogleStandInShapeTests {
    static let account = "fe-driver@shapes.iam.gserviceaccount.com"

    func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    /// Google's error body: `{"error": {"code", "message", "status"}}`.
    func expectGoogleError(_ response: TestResponse, code: Int, status: String) throws {
        #expect(response.status.code == code)
        let error = try #require(try json(response)["error"] as? [String: Any])
        #expect(error["code"] as? Int == code && error["status"] as? String == status)
        #expect((error["message"] as? String)?.isEmpty == false)
    }

    @Test(
        "the metadata server wants Metadata-Flavor: Google (a 403 HTML page without it), says it on every answer, and answers access_token, expires_in, token_type; and the email"
    )
    func metadataServer() async throws {
        try await GoogleStandIn(runtimeAccount: "runner@shapes.iam.gserviceaccount.com").application(port: 0).test(
            .router
        ) { client in
            let path = "/computeMetadata/v1/instance/service-accounts/default/"
            // Refused as Google's metadata server refuses: 403, an HTML page naming the header.
            let refused = try await client.execute(uri: path + "token", method: .get)
            #expect(refused.status == .forbidden && refused.headers[.contentType] == "text/html; charset=UTF-8")
            #expect(String(buffer: refused.body).contains("Missing Metadata-Flavor:Google header."))
            #expect(refused.headers[.init("Metadata-Flavor")!] == "Google")
            let answer = try await client.execute(
                uri: path + "token", method: .get, headers: [.init("Metadata-Flavor")!: "Google"])
            #expect(answer.headers[.init("Metadata-Flavor")!] == "Google", "every answer says Metadata-Flavor: Google")
            let token = try json(answer)
            #expect((token["access_token"] as? String)?.isEmpty == false)
            #expect(token["expires_in"] as? Int == 3599 && token["token_type"] as? String == "Bearer")
            let email = try await client.execute(
                uri: path + "email", method: .get, headers: [.init("Metadata-Flavor")!: "Google"])
            #expect(String(buffer: email.body) == "runner@shapes.iam.gserviceaccount.com")
        }
    }

    @Test("signJwt wants a bearer it issued and a JSON payload, and answers keyId and signedJwt")
    func signJwt() async throws {
        try await GoogleStandIn(serviceAccounts: [Self.account]).application(port: 0).test(.router) { client in
            let path = "/v1/projects/-/serviceAccounts/\(Self.account):signJwt"
            let body = ByteBuffer(string: #"{"payload":"{\"iss\":\"x\"}"}"#)
            try expectGoogleError(
                try await client.execute(uri: path, method: .post, body: body), code: 401, status: "UNAUTHENTICATED")
            let bad = try await client.execute(
                uri: path, method: .post, headers: [.authorization: "Bearer ya29.made-up"], body: body)
            try expectGoogleError(bad, code: 401, status: "UNAUTHENTICATED")

            let tokenAnswer = try await client.execute(
                uri: "/computeMetadata/v1/instance/service-accounts/default/token", method: .get,
                headers: [.init("Metadata-Flavor")!: "Google"])
            let bearer = "Bearer " + (try json(tokenAnswer)["access_token"] as? String ?? "")
            let notJSON = try await client.execute(
                uri: path, method: .post, headers: [.authorization: bearer],
                body: ByteBuffer(string: #"{"payload":"[1]"}"#))
            try expectGoogleError(notJSON, code: 400, status: "INVALID_ARGUMENT")

            let signed = try json(
                try await client.execute(uri: path, method: .post, headers: [.authorization: bearer], body: body))
            let keyID = try #require(signed["keyId"] as? String)
            let jwt = try #require(signed["signedJwt"] as? String).split(separator: ".")
            #expect(jwt.count == 3)
            #expect(
                Base64URL.decode(jwt[1]).map { String(decoding: $0, as: UTF8.self) } == #"{"iss":"x"}"#,
                "the payload is signed as given")
            let header =
                try JSONSerialization.jsonObject(with: try #require(Base64URL.decode(jwt[0]))) as? [String: String]
            #expect(header == ["alg": "RS256", "kid": keyID, "typ": "JWT"])
        }
    }

    @Test("an account that does not exist is 404 NOT_FOUND, as at Google: for signJwt, its public keys and a rotation")
    func unknownAccount() async throws {
        let standIn = GoogleStandIn(serviceAccounts: [Self.account])
        try await standIn.application(port: 0).test(.router) { client in
            let stranger = "nobody@shapes.iam.gserviceaccount.com"
            let tokenAnswer = try json(
                try await client.execute(
                    uri: "/computeMetadata/v1/instance/service-accounts/default/token", method: .get,
                    headers: [.init("Metadata-Flavor")!: "Google"]))
            let bearer = try #require(tokenAnswer["access_token"] as? String)
            let signed = try await client.execute(
                uri: "/v1/projects/-/serviceAccounts/\(stranger):signJwt", method: .post,
                headers: [.authorization: "Bearer \(bearer)"],
                body: ByteBuffer(string: #"{"payload":"{}"}"#))
            try expectGoogleError(signed, code: 404, status: "NOT_FOUND")
            try expectGoogleError(
                try await client.execute(uri: "/service_accounts/v1/metadata/jwk/\(stranger)", method: .get), code: 404,
                status: "NOT_FOUND")
            try expectGoogleError(
                try await client.execute(uri: "/stand-in/v1/accounts/\(stranger):rotateKey", method: .post), code: 404,
                status: "NOT_FOUND")
            // Once created, it signs.
            await standIn.accounts.create(stranger)
            #expect(
                try await client.execute(uri: "/service_accounts/v1/metadata/jwk/\(stranger)", method: .get).status
                    == .ok)
        }
    }

    @Test(
        "the public keys are an RS256 JWKS with Cache-Control, the next key published before it signs; a rotation makes it current, publishes a new next one and keeps the old one"
    )
    func publicKeys() async throws {
        try await GoogleStandIn(serviceAccounts: [Self.account]).application(port: 0).test(.router) { client in
            let path = "/service_accounts/v1/metadata/jwk/\(Self.account)"
            let first = try await client.execute(uri: path, method: .get)
            #expect(first.headers[.cacheControl]?.contains("max-age=") == true)
            let keys = try #require(try json(first)["keys"] as? [[String: Any]])
            #expect(keys.count == 2, "the current key and the next one")
            for field in ["kty", "alg", "use", "kid", "n", "e"] { #expect(keys[0][field] is String, "\(field)") }
            #expect(
                keys[0]["kty"] as? String == "RSA" && keys[0]["alg"] as? String == "RS256"
                    && keys[0]["use"] as? String == "sig")

            let rotated = try json(
                try await client.execute(uri: "/stand-in/v1/accounts/\(Self.account):rotateKey", method: .post))
            let after = try #require(
                try json(try await client.execute(uri: path, method: .get))["keys"] as? [[String: Any]])
            #expect(rotated["keyId"] as? String == keys[1]["kid"] as? String, "the published next key became current")
            #expect(
                after.count == 3 && after[0]["kid"] as? String == keys[1]["kid"] as? String
                    && after[2]["kid"] as? String == keys[0]["kid"] as? String)
            #expect(
                !keys.contains { $0["kid"] as? String == after[1]["kid"] as? String }, "a new next key is published")
        }
    }
}
