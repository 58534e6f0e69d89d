import FleetTokens

/// A JWKS the local Fleet Engine fetches trusted keys from.
enum TrustedKeySource: Sendable, Hashable, CustomStringConvertible {
    /// A JWKS whose keys name their account and role (the token server's
    /// `/.well-known/jwks.json`).
    case jwks(url: String)
    /// The public keys Google publishes for a service account whose keys it manages:
    /// `{certs}/service_accounts/v1/metadata/jwk/{EMAIL}`, trusted with `role`.
    case googleAccount(GoogleManagedAccount, certsURL: String)

    /// Where the JWKS is.
    var url: String {
        switch self {
        case .jwks(let url): url
        case .googleAccount(let account, let certsURL): "\(certsURL)/service_accounts/v1/metadata/jwk/\(account.email)"
        }
    }

    /// The accounts `document` makes trusted.
    func accounts(in document: JSONWebKeySet) throws(JSONWebKeySetError) -> [TrustedServiceAccount] {
        switch self {
        case .jwks: try document.trustedAccounts()
        case .googleAccount(let account, _): try document.trustedAccounts(email: account.email, role: account.role)
        }
    }

    var description: String {
        switch self {
        case .jwks(let url): "JWKS \(url)"
        case .googleAccount(let account, _): "Google-managed keys of \(account.email)"
        }
    }
}

/// A service account whose keys Google manages (no key file), trusted with a role.
package struct GoogleManagedAccount: Sendable, Hashable {
    /// The account's email.
    package var email: String
    /// What its tokens may do.
    package var role: FleetEngineRole

    /// Trusts `email` with `role`.
    package init(email: String, role: FleetEngineRole) {
        self.email = email
        self.role = role
    }
}
