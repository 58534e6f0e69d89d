import Foundation
import TestSupport
import Testing

@testable import FleetTokens

@Suite("Service-account key files")
struct ServiceAccountKeyTests {
    let folder: String = {
        let path = NSTemporaryDirectory() + "fleetauth-keys-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    @Test("a generated key has Google's shape, mode 0600, and reads back")
    func generateWriteRead() throws {
        let key = TestKeys.driver
        let path = folder + "/driver.json"
        try key.write(to: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: String])
        #expect(
            Set(object.keys) == [
                "type", "project_id", "private_key_id", "private_key", "client_email", "client_id", "auth_uri",
                "token_uri",
                "auth_provider_x509_cert_url", "client_x509_cert_url", "universe_domain",
            ])
        #expect(object["type"] == "service_account")
        #expect(object["client_email"] == "fe-driver@test-project.iam.gserviceaccount.com")
        #expect(object["private_key"]?.hasPrefix("-----BEGIN PRIVATE KEY-----\n") == true)
        #expect(object["private_key_id"]?.range(of: "^[0-9a-f]{40}$", options: .regularExpression) != nil)
        #expect(object["client_id"]?.range(of: "^[0-9]{21}$", options: .regularExpression) != nil)
        let reread = try ServiceAccountKey(contentsOf: path)
        #expect(reread.clientEmail == key.clientEmail)
        #expect(reread.privateKeyID == key.privateKeyID)
        #expect(reread.publicKey.derRepresentation == key.publicKey.derRepresentation)
    }

    @Test("an existing file is kept unless overwriting is asked for")
    func refusesOverwrite() throws {
        let path = folder + "/key.json"
        try TestKeys.driver.write(to: path)
        #expect(throws: KeyFileError.self) { try TestKeys.consumer.write(to: path) }
        #expect(try ServiceAccountKey(contentsOf: path).clientEmail == TestKeys.driver.clientEmail)
        try TestKeys.consumer.write(to: path, overwrite: true)
        #expect(try ServiceAccountKey(contentsOf: path).clientEmail == TestKeys.consumer.clientEmail)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test(
        "each missing field is named with the file",
        arguments: ["type", "project_id", "private_key_id", "private_key", "client_email"])
    func missingField(field: String) throws {
        var object = try #require(
            try JSONSerialization.jsonObject(with: TestKeys.driver.jsonRepresentation()) as? [String: Any])
        object[field] = nil
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: KeyFileError(file: "k.json", problem: "field \"\(field)\" is missing")) {
            try ServiceAccountKey(json: data, source: "k.json")
        }
    }

    @Test("malformed fields and files are clear errors, never crashes")
    func malformed() throws {
        func problem(_ json: String) -> String? {
            do {
                _ = try ServiceAccountKey(json: Data(json.utf8), source: "k.json")
                return nil
            } catch {
                return error.description
            }
        }
        let base = try #require(
            try JSONSerialization.jsonObject(with: TestKeys.driver.jsonRepresentation()) as? [String: Any])
        func with(_ field: String, _ value: Any) -> String {
            var object = base
            object[field] = value
            return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }
        #expect(problem("not json") == "k.json: is not a JSON object (expected a Google service-account key file)")
        #expect(problem("[]")?.contains("not a JSON object") == true)
        #expect(
            problem(with("private_key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"))
                == "k.json: field \"private_key\" is not a PEM RSA private key of 2048 bits or more")
        #expect(
            problem(with("type", "authorized_user"))
                == "k.json: field \"type\" is \"authorized_user\", expected \"service_account\"")
        #expect(problem(with("client_email", 7)) == "k.json: field \"client_email\" must be a string")
        #expect(problem(with("client_email", "nobody")) == "k.json: field \"client_email\" is not an email address")
        #expect(problem(with("project_id", "")) == "k.json: field \"project_id\" is empty")
        // The private key never appears in any message.
        let pem = try #require(base["private_key"] as? String)
        let body = pem.split(separator: "\n")[1]
        #expect(problem(with("client_email", 7))?.contains(body) == false)
    }

    @Test func missingFile() {
        #expect(throws: KeyFileError.self) { try ServiceAccountKey(contentsOf: folder + "/nope.json") }
    }

    @Test("generated emails tell their role")
    func rolesFromEmails() throws {
        for role in FleetEngineRole.allCases {
            #expect(role.accountID.count >= 6 && role.accountID.count <= 30)
            #expect(FleetEngineRole(generatedAccountEmail: "\(role.accountID)@p.iam.gserviceaccount.com") == role)
            #expect(FleetEngineRole(name: role.shortName) == role)
            #expect(FleetEngineRole(name: role.rawValue) == role)
        }
        #expect(FleetEngineRole(generatedAccountEmail: "someone@p.iam.gserviceaccount.com") == nil)
    }
}
