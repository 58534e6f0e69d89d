import FleetAuthServerHTTP
import FleetTokens
import Foundation

/// The rules usernames, passwords and resource ids must follow, checked the same way by the
/// admin API and the `fleetauth accounts`/`assign` commands.
package enum AccountRules {
    /// The longest username, in characters.
    package static let maximumUsernameLength = 64
    /// The shortest password, in characters (Unicode code points, as JSON Schema counts them).
    package static let minimumPasswordLength = 8
    /// The longest password, in characters (longer ones than bcrypt's 72 bytes are hashed with
    /// SHA-256 first; see ``PasswordHasher``).
    package static let maximumPasswordLength = 1024

    private static let usernameCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._@+-")

    /// Why `username` is not acceptable, or `nil`.
    package static func problem(withUsername username: String) -> String? {
        if username.isEmpty { return "username is empty" }
        if username.count > maximumUsernameLength {
            return "username is longer than \(maximumUsernameLength) characters"
        }
        if !username.allSatisfy(usernameCharacters.contains) {
            return "username may only contain letters, digits and . _ @ + -"
        }
        return nil
    }

    /// Why `password` is not acceptable, or `nil`. The message never repeats the password.
    package static func problem(withPassword password: String) -> String? {
        let length = password.unicodeScalars.count
        if length < minimumPasswordLength { return "password must have at least \(minimumPasswordLength) characters" }
        if length > maximumPasswordLength { return "password must have at most \(maximumPasswordLength) characters" }
        if password.utf8.contains(0) { return "password must not contain a NUL character" }
        return nil
    }

    /// The role named `name` (a former spelling too), or a 400 listing the roles.
    package static func role(named name: String) throws(APIError) -> AccountRole {
        guard let role = AccountRole(name: name) else {
            throw .invalidArgument("unknown role \"\(name)\"; roles: \(AccountRole.allNames)")
        }
        return role
    }

    /// Checks a username, throwing a 400 that says what is wrong.
    package static func checkUsername(_ username: String) throws(APIError) {
        if let problem = problem(withUsername: username) { throw .invalidArgument(problem) }
    }

    /// Checks a password, throwing a 400 that says what is wrong (never what it was).
    package static func checkPassword(_ password: String) throws(APIError) {
        if let problem = problem(withPassword: password) { throw .invalidArgument(problem) }
    }

    /// The longest identity issuer URL, in characters (code points).
    package static let maximumIssuerLength = 1024
    /// The longest identity subject, in characters (code points; OpenID Connect's limit for `sub`).
    package static let maximumSubjectLength = 255

    /// The form of a linked identity's issuer, word for word the pattern of the API document's
    /// `Identity.issuer`: https (http only on loopback), a host of letters, digits, dots and
    /// hyphens, a port of 1 to 65535, a path of URL characters; no query, fragment or credentials.
    package static let issuerPattern =
        #"^(https://[A-Za-z0-9.-]+|http://(localhost|127\.0\.0\.1|\[::1\]))"#
        + #"(:(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?"#
        + #"(/([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})*)?$"#

    private static let issuerExpression = try! NSRegularExpression(pattern: issuerPattern)

    /// Why `identity` cannot be linked to an account, or `nil`: the issuer must be an https
    /// URL (http only on loopback, for development) of ``issuerPattern``'s form, the subject 1
    /// to 255 characters without control characters.
    package static func problem(withIdentity identity: LinkedIdentity) -> String? {
        if let problem = OIDCSettings.problem(withIssuer: identity.issuer) { return "identity \(problem)" }
        let issuer = identity.issuer
        if issuerExpression.firstMatch(in: issuer, range: NSRange(issuer.startIndex..., in: issuer)) == nil {
            return
                "identity issuer \"\(issuer)\" must be an https URL (http only on loopback) with a plain host, an optional port and path, and no query, fragment or credentials"
        }
        if identity.issuer.unicodeScalars.count > maximumIssuerLength {
            return "identity issuer is longer than \(maximumIssuerLength) characters"
        }
        if identity.subject.isEmpty { return "identity subject is empty" }
        if identity.subject.unicodeScalars.count > maximumSubjectLength {
            return "identity subject is longer than \(maximumSubjectLength) characters"
        }
        if identity.subject.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "identity subject must not contain control characters"
        }
        return nil
    }

    /// Checks an identity, throwing a 400 that says what is wrong.
    package static func checkIdentity(_ identity: LinkedIdentity) throws(APIError) {
        if let problem = problem(withIdentity: identity) { throw .invalidArgument(problem) }
    }

    /// Checks a resource id of an admin request, throwing a 400 that says what is wrong.
    package static func checkResourceID(_ resource: Resource) throws(APIError) {
        if let problem = FleetEngineIdentifier.problem(with: resource.id) {
            throw .invalidArgument(
                "\(resource.kind) id \(problem); ids are 1 to \(FleetEngineIdentifier.maximumLength) characters without / : ? , # * or white space"
            )
        }
    }
}
