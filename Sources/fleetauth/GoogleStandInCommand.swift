import ArgumentParser
import FleetAuthServerHTTP
import Foundation
import GoogleStandIn
import Logging
import ServiceLifecycle

/// `fleetauth google-stand-in`: Google's side of keyless signing, offline.
struct GoogleStandInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "google-stand-in",
        abstract:
            "Run a stand-in for Google's metadata server, IAM signJwt and service-account public keys, for keyless signing offline.",
        discussion: """
            It signs as the service accounts named with --account, with keys of its own (made on \
            first use), and publishes their public halves as Google does, the next key before it \
            signs; any other account is 404 NOT_FOUND, as at Google. Rotate an account's key with \
            POST /stand-in/v1/accounts/EMAIL:rotateKey; the old keys stay published.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8090

    @Option(help: "The account the token server 'runs as' (the metadata server's email).")
    var runtimeAccount = "token-server@local-project.iam.gserviceaccount.com"

    @Option(
        name: .customLong("account"),
        help: "A service account that exists, e.g. fe-driver@my-fleet.iam.gserviceaccount.com (repeatable).")
    var serviceAccounts: [String] = []

    @Option(help: "Milliseconds each signJwt answer is held back, as IAM's round trip would be.")
    var signDelay = 0

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard signDelay >= 0 else { throw ValidationError("--sign-delay must not be negative") }
    }

    func run() async throws {
        let logger = Logger(label: "fleetauth.google-stand-in", factory: DeferredMetadataLogHandler.standardError)
        let standIn = GoogleStandIn(
            runtimeAccount: runtimeAccount, serviceAccounts: serviceAccounts, signJwtDelay: .milliseconds(signDelay),
            logger: logger)
        let host = host
        let application = standIn.application(host: host, port: port) { port in
            let base = "http://\(host):\(port)"
            FleetEngineCommand.announce(
                """
                Google stand-in on \(base) (runtime account \(standIn.runtimeAccount))
                  token server:  GCE_METADATA_HOST=\(host):\(port) fleetauth token-server --iam-credentials-url \(base) --signer driver=EMAIL …
                  Fleet Engine:  fleetauth fleet-engine --google-certs-url \(base) --trust-account driver=EMAIL …
                  rotate a key:  curl -X POST \(base)/stand-in/v1/accounts/EMAIL:rotateKey
                """)
        }
        try await ServiceGroup(services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            .run()
    }
}
