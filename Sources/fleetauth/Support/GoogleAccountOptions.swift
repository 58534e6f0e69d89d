import ArgumentParser
import CommandSupport
import FleetAuthServerHTTP
import FleetTokens
import LocalFleetEngine

/// `--trust-account ROLE=EMAIL` and `--google-certs-url`: service accounts whose keys Google
/// manages, trusted by email, their public keys fetched from Google.
struct GoogleAccountOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Trust this service account, whose keys Google manages, with this role (repeatable).",
            discussion: "Its public keys come from {google-certs-url}/service_accounts/v1/metadata/jwk/EMAIL.",
            valueName: "role=email"
        ))
    var trustAccount: [String] = []

    @Option(help: "Where Google publishes service accounts' public keys.")
    var googleCertsURL = LocalFleetEngineConfiguration.defaultGoogleCertsURL

    /// The accounts given.
    func accounts() throws -> [GoogleManagedAccount] {
        try trustAccount.map { argument in
            let given = try RoleAndAccount(argument, option: "--trust-account")
            return GoogleManagedAccount(email: given.email, role: given.role)
        }
    }

    /// The accounts given with the keys Google publishes for them now, for a one-off check.
    func fetchTrustedAccounts() async throws -> [TrustedServiceAccount] {
        var trusted: [TrustedServiceAccount] = []
        for account in try accounts() {
            let url = "\(googleCertsURL)/service_accounts/v1/metadata/jwk/\(account.email)"
            do {
                let document = try JSONWebKeySet(json: try await FetchedDocument.fetch(url, timeout: .seconds(10)).body)
                trusted += try document.trustedAccounts(email: account.email, role: account.role)
            } catch {
                throw CommandFailure("the keys of \(account.email) could not be had: \(error)")
            }
        }
        return trusted
    }
}
