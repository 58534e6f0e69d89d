import FleetTokens
import Foundation

/// Reads the accounts a Fleet Engine should trust from a file: a Google service-account key
/// file (only its public key is kept) or a JWKS document.
package enum TrustedAccountFile {
    /// Why a trust file cannot be used.
    package struct Problem: Error, Sendable, CustomStringConvertible {
        /// What is wrong, naming the file.
        package let description: String
    }

    /// The accounts of the file at `path`. A key's role is `role` when given, else the one a
    /// FleetAuth-generated email stands for (`fe-driver@…`), else the JWKS key's `role` member.
    package static func accounts(at path: String, role: FleetEngineRole? = nil) throws(Problem)
        -> [TrustedServiceAccount]
    {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(description: "\(path): cannot be read")
        }
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        if object?["keys"] != nil {
            do {
                return try JSONWebKeySet(json: data).trustedAccounts(role: role)
            } catch {
                throw Problem(description: "\(path): \(error)")
            }
        }
        let key: ServiceAccountKey
        do {
            key = try ServiceAccountKey(json: data, source: path)
        } catch {
            throw Problem(description: "\(error) (expected a service-account key file or a JWKS document)")
        }
        guard let keyRole = role ?? FleetEngineRole(generatedAccountEmail: key.clientEmail) else {
            throw Problem(
                description:
                    "\(path): the role of \(key.clientEmail) is unknown; give it as ROLE=\(path), e.g. driver=\(path)")
        }
        return [TrustedServiceAccount(key: key, role: keyRole)]
    }

    /// The accounts of an argument `[ROLE=]PATH`, e.g. `driver=keys/driver.json`.
    package static func accounts(argument: String) throws(Problem) -> [TrustedServiceAccount] {
        if let equals = argument.firstIndex(of: "="), let role = FleetEngineRole(name: String(argument[..<equals])) {
            return try accounts(at: String(argument[argument.index(after: equals)...]), role: role)
        }
        return try accounts(at: argument)
    }
}
