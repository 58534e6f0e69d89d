import FleetTokens
import Foundation

/// Which roles sign through Google's IAM instead of a key file, and where IAM and the
/// metadata server are.
package struct KeylessSigning: Sendable {
    /// The account each role signs as through IAM; roles not listed sign with key files.
    package var signers: [FleetEngineRole: String]
    /// The IAM Credentials API (`--iam-credentials-url`).
    package var iamCredentialsURL: URL
    /// The metadata server that hands out the runtime account's access token
    /// (`$GCE_METADATA_HOST`, else `metadata.google.internal`).
    package var metadataHost: String
    /// Whether a token signed for (account, kind, id) is handed out again while more than half
    /// its life is left; `nil` means on when any role signs through IAM, off otherwise.
    package var reuseTokens: Bool?

    /// No role signs through IAM unless `signers` says so.
    package init(
        signers: [FleetEngineRole: String] = [:],
        iamCredentialsURL: URL = IAMSigner.defaultIAMCredentialsURL,
        metadataHost: String = ProcessInfo.processInfo.environment["GCE_METADATA_HOST"]
            ?? MetadataServerCredentials.defaultHost,
        reuseTokens: Bool? = nil
    ) {
        self.signers = signers
        self.iamCredentialsURL = iamCredentialsURL
        self.metadataHost = metadataHost
        self.reuseTokens = reuseTokens
    }

    /// Whether tokens are reused, after the default is applied.
    var reusesTokens: Bool { reuseTokens ?? !signers.isEmpty }
}
