import ArgumentParser
import CommandSupport
import FleetTokens
import Foundation

/// `fleetauth verify`: checks a token as Fleet Engine would, against key files or a JWKS.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract:
            "Verify a token against trusted key files, a JWKS or Google-managed accounts; print its claims, or why it is refused.",
        discussion: "Exits 0 when the token is accepted, 1 when it is refused."
    )

    @Argument(help: "The token, or - to read it from standard input.")
    var token: String

    @Option(name: .customLong("key"), help: "A trusted service-account key file (repeatable).")
    var keys: [String] = []

    @Option(help: "A trusted JWKS document (a file).")
    var jwks: String?

    @OptionGroup var google: GoogleAccountOptions

    @Option(help: "The role of the trusted accounts, when their email does not tell it.")
    var role: FleetEngineRole?

    @Option(help: "The audience to require.")
    var audience: String = FleetEngineClaims.fleetEngineAudience

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        guard !keys.isEmpty || jwks != nil || !google.trustAccount.isEmpty else {
            throw ValidationError("give at least one --key FILE, --jwks FILE or --trust-account ROLE=EMAIL")
        }
        _ = try google.accounts()
    }

    func run() async throws {
        let verifier = TokenVerifier(
            trusting: try trustedAccounts() + (try await google.fetchTrustedAccounts()), audience: audience)
        let verified: VerifiedToken
        do {
            verified = try verifier.verify(try TokenArgument.read(token))
        } catch let refusal as TokenRefusal {
            if json {
                try JSONOutput.print(
                    VerificationOutput(
                        accepted: false, role: nil, claims: nil, reason: refusal.reason, message: refusal.description))
            } else {
                print("refused (\(refusal.reason)): \(refusal.description)")
            }
            throw ExitCode(1)
        }
        if json {
            try JSONOutput.print(
                VerificationOutput(
                    accepted: true, role: verified.role.rawValue, claims: verified.claims, reason: nil, message: nil))
        } else {
            print("accepted: signed by \(verified.claims.issuer) (\(verified.role.rawValue)), key \(verified.keyID)")
            for (claim, id) in verified.authorization.namedIDs { print("  \(claim): \(id)") }
            print("  expires: \(TimeText.utc(epochSeconds: verified.claims.expiresAt))")
        }
    }

    private func trustedAccounts() throws -> [TrustedServiceAccount] {
        var accounts: [TrustedServiceAccount] = []
        for path in keys {
            let key = try ServiceAccountKey(contentsOf: path)
            guard let keyRole = role ?? FleetEngineRole(generatedAccountEmail: key.clientEmail) else {
                throw CommandFailure("the role of \(key.clientEmail) is unknown: give --role")
            }
            accounts.append(TrustedServiceAccount(key: key, role: keyRole))
        }
        if let jwks {
            guard let data = FileManager.default.contents(atPath: jwks) else {
                throw CommandFailure("\(jwks): cannot be read")
            }
            accounts += try JSONWebKeySet(json: data).trustedAccounts(role: role)
        }
        return accounts
    }
}

/// The JSON `fleetauth verify --json` prints.
struct VerificationOutput: Encodable {
    let accepted: Bool
    let role: String?
    let claims: FleetEngineClaims?
    let reason: String?
    let message: String?
}
