import FleetAuthCodecs
import Foundation

/// A Google service-account JSON key, the file Fleet Engine operators download from Cloud IAM
/// (`type`, `project_id`, `private_key_id`, `private_key`, `client_email`, …), with its RSA key
/// parsed and ready to sign.
public struct ServiceAccountKey: Sendable {
    /// The Cloud project the account belongs to (`project_id`); Fleet Engine's provider id.
    public let projectID: String
    /// The key's id (`private_key_id`); minted tokens carry it as the header's `kid`.
    public let privateKeyID: String
    /// The account's email (`client_email`); minted tokens carry it as `iss` and `sub`.
    public let clientEmail: String
    /// The account's numeric id (`client_id`), when the file has one.
    public let clientID: String?
    /// The RSA private key (`private_key`, PEM PKCS#8).
    public let privateKey: RSAPrivateKey

    /// The public half of ``privateKey``.
    public var publicKey: RSAPublicKey { privateKey.publicKey }

    /// Creates a key from its parts.
    public init(
        projectID: String, privateKeyID: String, clientEmail: String, clientID: String? = nil, privateKey: RSAPrivateKey
    ) {
        self.projectID = projectID
        self.privateKeyID = privateKeyID
        self.clientEmail = clientEmail
        self.clientID = clientID
        self.privateKey = privateKey
    }

    /// Reads a key file, with errors that name the file and the missing or malformed field.
    public init(contentsOf path: String) throws(KeyFileError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw KeyFileError(file: path, problem: "cannot be read (\(Self.describe(error)))")
        }
        try self.init(json: data, source: path)
    }

    /// Parses a key file's JSON; `source` names it in errors.
    public init(json: Data, source: String = "<memory>") throws(KeyFileError) {
        func fail(_ problem: String) -> KeyFileError {
            KeyFileError(file: source, problem: problem)
        }
        guard let object = try? JSONSerialization.jsonObject(with: json), let fields = object as? [String: Any] else {
            throw fail("is not a JSON object (expected a Google service-account key file)")
        }
        func field(_ name: String) throws(KeyFileError) -> String {
            guard let raw = fields[name] else { throw fail("field \"\(name)\" is missing") }
            guard let value = raw as? String else { throw fail("field \"\(name)\" must be a string") }
            guard !value.isEmpty else { throw fail("field \"\(name)\" is empty") }
            return value
        }
        let type = try field("type")
        guard type == "service_account" else {
            throw fail("field \"type\" is \"\(type)\", expected \"service_account\"")
        }
        let projectID = try field("project_id")
        let privateKeyID = try field("private_key_id")
        let clientEmail = try field("client_email")
        guard clientEmail.contains("@") else { throw fail("field \"client_email\" is not an email address") }
        let pem = try field("private_key")
        let privateKey: RSAPrivateKey
        do {
            privateKey = try RSAPrivateKey(pemRepresentation: pem)
        } catch {
            throw fail("field \"private_key\" is not a PEM RSA private key of 2048 bits or more")
        }
        let clientID: String?
        if fields["client_id"] == nil {
            clientID = nil
        } else {
            clientID = try field("client_id")
        }
        self.init(
            projectID: projectID, privateKeyID: privateKeyID, clientEmail: clientEmail, clientID: clientID,
            privateKey: privateKey)
    }

    /// The key file's JSON in Google's exact shape and field order, private key included.
    public func jsonRepresentation() -> Data {
        let encodedEmail = clientEmail.replacingOccurrences(of: "@", with: "%40")
        let fields: [(String, String)] = [
            ("type", "service_account"),
            ("project_id", projectID),
            ("private_key_id", privateKeyID),
            ("private_key", privateKey.pkcs8PEMRepresentation + "\n"),
            ("client_email", clientEmail),
            ("client_id", clientID ?? ""),
            ("auth_uri", "https://accounts.google.com/o/oauth2/auth"),
            ("token_uri", "https://oauth2.googleapis.com/token"),
            ("auth_provider_x509_cert_url", "https://www.googleapis.com/oauth2/v1/certs"),
            ("client_x509_cert_url", "https://www.googleapis.com/robot/v1/metadata/x509/\(encodedEmail)"),
            ("universe_domain", "googleapis.com"),
        ]
        let body = fields.map { "  \(JSONString.quoted($0.0)): \(JSONString.quoted($0.1))" }.joined(separator: ",\n")
        return Data("{\n\(body)\n}\n".utf8)
    }

    private static func describe(_ error: Error) -> String {
        (error as NSError).localizedDescription
    }
}
