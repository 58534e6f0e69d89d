import FleetAuthServerHTTP
import FleetTokens
import Foundation
import GoogleStandIn
import LocalFleetEngine
import Logging
import TokenServer

/// A Google stand-in started in this process, for `serve --keyless` and `demo --keyless`: the
/// token server signs the app roles' tokens through it, and the local Fleet Engine trusts those
/// accounts by email, with the keys it publishes.
package struct LocalKeyless: Sendable {
    /// The roles of the tokens apps get, which sign keylessly.
    package static let roles = AccountRole.allCases.map(\.signingRole)

    package let standIn: GoogleStandIn
    private let run: RunningService
    /// Where the stand-in listens, e.g. `http://127.0.0.1:53211`.
    package let baseURL: String

    /// Starts a stand-in on loopback `port` (0 picks a free one) where each app role's account
    /// of `project` exists.
    package static func start(port: Int = 0, project: String, logger: Logger) async throws -> LocalKeyless {
        let standIn = GoogleStandIn(serviceAccounts: roles.map { account(of: $0, project: project) }, logger: logger)
        let run = try await RunningService.start(logger: logger) { onStarted in
            standIn.application(host: "127.0.0.1", port: port, onRunning: onStarted)
        }
        return LocalKeyless(standIn: standIn, run: run, baseURL: "http://127.0.0.1:\(run.port)")
    }

    /// The service account each app role signs as: `fe-<role>@<project>.iam.gserviceaccount.com`.
    package static func account(of role: FleetEngineRole, project: String) -> String {
        "\(role.accountID)@\(project).iam.gserviceaccount.com"
    }

    /// Keyless signing of every app role through this stand-in.
    package func signing(project: String) -> KeylessSigning {
        KeylessSigning(
            signers: Dictionary(uniqueKeysWithValues: Self.roles.map { ($0, Self.account(of: $0, project: project)) }),
            iamCredentialsURL: URL(string: baseURL)!,
            metadataHost: String(baseURL.dropFirst("http://".count))
        )
    }

    /// Gives every app role's account a new current key; the old ones stay published.
    package func rotateKeys(project: String) async throws {
        for role in Self.roles { try await standIn.accounts.rotateKey(of: Self.account(of: role, project: project)) }
    }

    /// The current key of `role`'s account, as a key file would hold it (for the demo's
    /// intruder, who forges tokens with a genuine key and wrong claims).
    package func currentKey(of role: FleetEngineRole, project: String) async throws -> ServiceAccountKey {
        let email = Self.account(of: role, project: project)
        let key = try await standIn.accounts.currentKey(of: email)
        return ServiceAccountKey(
            projectID: project, privateKeyID: key.id, clientEmail: email, privateKey: key.privateKey)
    }

    /// Stops the stand-in.
    package func stop() async {
        await run.stop()
    }
}
