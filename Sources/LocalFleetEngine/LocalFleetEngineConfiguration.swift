import FleetAuthServerHTTP
import FleetTokens
import Foundation

/// How a ``LocalFleetEngine`` runs: which provider it serves, whom it trusts, where it listens
/// and what time it is.
package struct LocalFleetEngineConfiguration: Sendable {
    /// The provider (Cloud project id) served; requests for any other get 403.
    package var projectID: String
    /// Accounts trusted from key files or JWKS files.
    package var trustedAccounts: [TrustedServiceAccount]
    /// Where changes to `trustedAccounts` come from, when they change with no restart (the
    /// signing keys of a token server in the same process, as they rotate): called once at
    /// start with the function that trusts a new set of accounts in their place.
    package var followsTrustedAccounts:
        (@Sendable (_ trust: @escaping @Sendable ([TrustedServiceAccount]) -> Void) -> Void)?
    /// A JWKS URL (the token server's `/.well-known/jwks.json`) whose accounts are trusted too,
    /// fetched at start and again when a token names an unknown key or account.
    package var jwksURL: String?
    /// Accounts whose keys Google manages, trusted by email: their keys are fetched from
    /// ``googleCertsURL`` at start, again for a token naming an unknown key, and when their
    /// `max-age` runs out.
    package var googleManagedAccounts: [GoogleManagedAccount]
    /// Where Google publishes service accounts' public keys (`--google-certs-url`).
    package var googleCertsURL: String
    /// How long a fetch of a JWKS or of Google's keys may take before it is given up (5 s).
    package var jwksFetchTimeout = Duration.seconds(5)
    /// The shortest time between two fetches of ``jwksURL`` or of one account's keys.
    package var jwksMinimumRefreshInterval: Duration
    /// The address to listen on.
    package var host: String
    /// The port to listen on; 0 picks a free one (reported to ``onStarted``).
    package var port: Int
    /// The port of the gRPC door (VehicleService, TripService, gRPC health) on ``host``, or
    /// `nil` for none; 0 picks a free one (reported to ``onGRPCStarted``).
    package var grpcPort: Int?
    /// Makes the gRPC door's transport in place of its own (`nil`): for a benchmark that
    /// measures the door on grpc-swift's transport beside its own.
    package var grpcTransport: (any GRPCDoorTransportMaker)?
    /// How many verified tokens to remember.
    package var verifiedTokenCacheCapacity: Int
    /// Who may open the console at `/console/` (see ``ConsoleAccess/choose(enabled:key:host:)``).
    package var console: ConsoleAccess
    /// The clock for token checks and `serverTime`.
    package var now: @Sendable () -> Date
    /// Called once the server listens, with the port it is bound to.
    package var onStarted: @Sendable (_ port: Int) async -> Void
    /// Called once the gRPC door listens, with the port it is bound to.
    package var onGRPCStarted: @Sendable (_ port: Int) async -> Void
    /// Slow and idle clients, draining and shutdown (`--header-timeout`, `--shutdown-delay`, …).
    package var lifecycle: ServerLifecycle
    /// Whether each answered request is logged (`--access-log`).
    package var accessLog: Bool
    /// The certificate the REST and gRPC ports serve TLS with (`--tls-cert`, `--tls-key`).
    package var tls: TLSCertificates?

    /// A configuration serving `projectID` over REST on 127.0.0.1:8081 (and over gRPC when
    /// `grpcPort` is given), trusting `trustedAccounts` and the accounts of `jwksURL`.
    package init(
        projectID: String,
        trustedAccounts: [TrustedServiceAccount] = [],
        jwksURL: String? = nil,
        googleManagedAccounts: [GoogleManagedAccount] = [],
        googleCertsURL: String = LocalFleetEngineConfiguration.defaultGoogleCertsURL,
        jwksMinimumRefreshInterval: Duration = .seconds(10),
        host: String = "127.0.0.1",
        port: Int = 8081,
        grpcPort: Int? = nil,
        verifiedTokenCacheCapacity: Int = 100_000,
        console: ConsoleAccess = .off,
        now: @escaping @Sendable () -> Date = { Date() },
        lifecycle: ServerLifecycle = ServerLifecycle(),
        accessLog: Bool = false,
        tls: TLSCertificates? = nil,
        onStarted: @escaping @Sendable (_ port: Int) async -> Void = { _ in },
        onGRPCStarted: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) {
        self.lifecycle = lifecycle
        self.accessLog = accessLog
        self.tls = tls
        self.projectID = projectID
        self.trustedAccounts = trustedAccounts
        self.jwksURL = jwksURL
        self.googleManagedAccounts = googleManagedAccounts
        self.googleCertsURL = googleCertsURL
        self.jwksMinimumRefreshInterval = jwksMinimumRefreshInterval
        self.host = host
        self.port = port
        self.grpcPort = grpcPort
        self.verifiedTokenCacheCapacity = verifiedTokenCacheCapacity
        self.console = console
        self.now = now
        self.onStarted = onStarted
        self.onGRPCStarted = onGRPCStarted
    }

    /// Google's public-key host for service accounts.
    package static let defaultGoogleCertsURL = "https://www.googleapis.com"

    /// Every JWKS the engine fetches keys from.
    var trustedKeySources: [TrustedKeySource] {
        (jwksURL.map { [.jwks(url: $0)] } ?? [])
            + googleManagedAccounts.map { .googleAccount($0, certsURL: googleCertsURL) }
    }
}
