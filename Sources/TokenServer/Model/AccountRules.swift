import FleetTokens
import FleetServerSupport

/// The rules usernames, passwords and resource ids must follow, checked the same way by the
/// admin API and the `fleetauth accounts`/`assign` commands.
public enum AccountRules {
    /// The longest username, in characters.
    public static let maximumUsernameLength = 64
    /// The shortest password, in characters.
    public static let minimumPasswordLength = 8
    /// The longest password, in UTF-8 bytes (bcrypt reads no further).
    public static let maximumPasswordBytes = 72

    private static let usernameCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._@+-")

    /// Why `username` is not acceptable, or `nil`.
    public static func problem(withUsername username: String) -> String? {
        if username.isEmpty { return "username is empty" }
        if username.count > maximumUsernameLength { return "username is longer than \(maximumUsernameLength) characters" }
        if !username.allSatisfy(usernameCharacters.contains) {
            return "username may only contain letters, digits and . _ @ + -"
        }
        return nil
    }

    /// Why `password` is not acceptable, or `nil`. The message never repeats the password.
    public static func problem(withPassword password: String) -> String? {
        if password.count < minimumPasswordLength { return "password must have at least \(minimumPasswordLength) characters" }
        if password.utf8.count > maximumPasswordBytes { return "password must have at most \(maximumPasswordBytes) bytes of UTF-8" }
        if password.utf8.contains(0) { return "password must not contain a NUL character" }
        return nil
    }

    /// The role named `name`, or a 400 listing the roles.
    public static func role(named name: String) throws(APIError) -> AccountRole {
        guard let role = AccountRole(rawValue: name) else {
            throw .invalidArgument("unknown role \"\(name)\"; roles: \(AccountRole.allNames)")
        }
        return role
    }

    /// Checks a username, throwing a 400 that says what is wrong.
    public static func checkUsername(_ username: String) throws(APIError) {
        if let problem = problem(withUsername: username) { throw .invalidArgument(problem) }
    }

    /// Checks a password, throwing a 400 that says what is wrong (never what it was).
    public static func checkPassword(_ password: String) throws(APIError) {
        if let problem = problem(withPassword: password) { throw .invalidArgument(problem) }
    }

    /// The longest identity issuer URL, in characters.
    public static let maximumIssuerLength = 1024
    /// The longest identity subject, in characters (OpenID Connect's limit for `sub`).
    public static let maximumSubjectLength = 255

    /// Why `identity` cannot be linked to an account, or `nil`: the issuer must be an https
    /// URL (http only on loopback, for development), the subject 1 to 255 visible characters.
    public static func problem(withIdentity identity: LinkedIdentity) -> String? {
        if let problem = OIDCSettings.problem(withIssuer: identity.issuer) { return "identity \(problem)" }
        if identity.issuer.count > maximumIssuerLength { return "identity issuer is longer than \(maximumIssuerLength) characters" }
        if identity.subject.isEmpty { return "identity subject is empty" }
        if identity.subject.count > maximumSubjectLength { return "identity subject is longer than \(maximumSubjectLength) characters" }
        if identity.subject.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "identity subject must not contain control characters"
        }
        return nil
    }

    /// Checks an identity, throwing a 400 that says what is wrong.
    public static func checkIdentity(_ identity: LinkedIdentity) throws(APIError) {
        if let problem = problem(withIdentity: identity) { throw .invalidArgument(problem) }
    }

    /// Checks a resource id of an admin request, throwing a 400 that says what is wrong.
    public static func checkResourceID(_ resource: Resource) throws(APIError) {
        if let problem = FleetEngineIdentifier.problem(with: resource.id) {
            throw .invalidArgument("\(resource.kind) id \(problem); ids are 1 to \(FleetEngineIdentifier.maximumLength) characters without / : ? , # * or white space")
        }
    }
}
