import FleetTokens

/// A rotation that cannot be made.
package enum KeyRotationRefused: Error, CustomStringConvertible {
    /// The role signs through IAM: Google makes and rotates its keys.
    case keyless(FleetEngineRole)
    /// The role has no key to replace.
    case noKey(FleetEngineRole)

    /// Why, in words.
    package var description: String {
        switch self {
        case .keyless(let role):
            "\(role.shortName) tokens are signed through IAM with keys Google manages and rotates; there is no key here to rotate"
        case .noKey(let role):
            "\(role.shortName) has no signing key to replace"
        }
    }
}
