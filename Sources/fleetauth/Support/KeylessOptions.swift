import ArgumentParser
import FleetTokens
import Foundation
import TokenServer

/// `--signer ROLE=EMAIL`, `--iam-credentials-url` and `--[no-]reuse-tokens`: which roles the
/// token server signs through Google's IAM, with no key file.
struct KeylessOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Sign this role's tokens through IAM as this service account, with no key file (repeatable).",
            discussion:
                "E.g. driver=fe-driver@my-fleet.iam.gserviceaccount.com. The account the server runs as needs roles/iam.serviceAccountTokenCreator on it; its access token comes from the metadata server ($GCE_METADATA_HOST).",
            valueName: "role=email"
        ))
    var signer: [String] = []

    @Option(help: "The IAM Service Account Credentials API.")
    var iamCredentialsURL = IAMSigner.defaultIAMCredentialsURL.absoluteString

    @Flag(
        inversion: .prefixedNo,
        help:
            "Hand a token out again while more than half its life is left (default: on with --signer, off with key files)."
    )
    var reuseTokens: Bool?

    /// The keyless signing these options describe.
    func keylessSigning() throws -> KeylessSigning {
        guard let url = URL(string: iamCredentialsURL), url.scheme == "https" || url.scheme == "http" else {
            throw ValidationError("--iam-credentials-url must be an http(s) URL")
        }
        var signers: [FleetEngineRole: String] = [:]
        for argument in signer {
            let given = try RoleAndAccount(argument, option: "--signer")
            guard signers[given.role] == nil else {
                throw ValidationError("--signer names \(given.role.shortName) twice")
            }
            signers[given.role] = given.email
        }
        return KeylessSigning(signers: signers, iamCredentialsURL: url, reuseTokens: reuseTokens)
    }
}
