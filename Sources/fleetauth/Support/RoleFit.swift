import FleetTokens

/// Warns when a token kind is signed by an account whose role Fleet Engine would not let use it.
enum RoleFit {
    /// A warning when `signerEmail` is a FleetAuth-generated account whose role is not one of
    /// `kind`'s ``TokenKind/signingRoles``.
    static func warning(kind: TokenKind, signerEmail: String) -> String? {
        guard let role = FleetEngineRole(generatedAccountEmail: signerEmail), !kind.signingRoles.contains(role) else {
            return nil
        }
        return "\(signerEmail) has role \(role.rawValue); Fleet Engine will deny a \(kind.name) token signed by it"
    }
}
