import ArgumentParser
import FleetServerSupport
import FleetTokens
import LocalFleetEngine

/// `--trust-account ROLE=EMAIL` and `--google-certs-url`: service accounts whose keys Google
/// manages, trusted by email, their public keys fetched from Google.
struct GoogleAccountOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
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
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let role = FleetEngineRole(name: parts[0]), parts[1].contains("@") else {
                throw ValidationError("--trust-account takes ROLE=EMAIL, e.g. driver=fe-driver@my-fleet.iam.gserviceaccount.com (got \(argument))")
            }
            return GoogleManagedAccount(email: parts[1], role: role)
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
