import Foundation

extension ServiceAccountKey {
    /// Makes a new RSA-2048 service-account key for `role` in `projectID`, with Google's
    /// naming: email `ACCOUNT@PROJECT.iam.gserviceaccount.com`, a 40-hex-digit key id and
    /// a 21-digit client id.
    ///
    /// - Parameters:
    ///   - projectID: The Cloud project id (Fleet Engine's provider id).
    ///   - role: The Fleet Engine role the account is for.
    ///   - accountID: The account part of the email; defaults to ``FleetEngineRole/accountID``.
    public static func generate(projectID: String, role: FleetEngineRole, accountID: String? = nil) throws(KeyFileError)
        -> ServiceAccountKey
    {
        let account = accountID ?? role.accountID
        guard FleetEngineIdentifier.isPlain(projectID), !projectID.contains("@") else {
            throw KeyFileError(file: "<new key>", problem: "project id \"\(projectID)\" is not a valid project id")
        }
        guard account.range(of: "^[a-z][a-z0-9-]{4,28}[a-z0-9]$", options: .regularExpression) != nil else {
            throw KeyFileError(
                file: "<new key>",
                problem:
                    "account id \"\(account)\" must be 6-30 lowercase letters, digits or dashes, starting with a letter"
            )
        }
        let privateKey: RSAPrivateKey
        do {
            privateKey = try RSAPrivateKey.generate()
        } catch {
            throw KeyFileError(file: "<new key>", problem: "RSA key generation failed")
        }
        var generator = SystemRandomNumberGenerator()
        let keyID = (0..<20).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        let clientID = "1" + (0..<20).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
        return ServiceAccountKey(
            projectID: projectID,
            privateKeyID: keyID,
            clientEmail: "\(account)@\(projectID).iam.gserviceaccount.com",
            clientID: clientID,
            privateKey: privateKey
        )
    }

    /// Writes the key file to `path` with mode 0600. Refuses to replace an existing file
    /// unless `overwrite` is true; the file is written whole or not at all.
    public func write(to path: String, overwrite: Bool = false) throws(KeyFileError) {
        try SecretFile.write(jsonRepresentation(), to: path, overwrite: overwrite)
    }
}
