import FleetTokens
import Foundation

/// How a ``LocalFleetEngine`` runs: which provider it serves, whom it trusts, where it listens
/// and what time it is.
public struct LocalFleetEngineConfiguration: Sendable {
    /// The provider (Cloud project id) served; requests for any other get 403.
    public var projectID: String
    /// Accounts trusted from key files or JWKS files.
    public var trustedAccounts: [TrustedServiceAccount]
    /// A JWKS URL (the token server's `/.well-known/jwks.json`) whose accounts are trusted too,
    /// fetched at start and again when a token names an unknown key or account.
    public var jwksURL: String?
    /// The shortest time between two fetches of ``jwksURL``.
    public var jwksMinimumRefreshInterval: Duration
    /// The address to listen on.
    public var host: String
    /// The port to listen on; 0 picks a free one (reported to ``onStarted``).
    public var port: Int
    /// The port of the gRPC door (VehicleService, TripService, gRPC health) on ``host``, or
    /// `nil` for none; 0 picks a free one (reported to ``onGRPCStarted``).
    public var grpcPort: Int?
    /// How many verified tokens to remember.
    public var verifiedTokenCacheCapacity: Int
    /// The clock for token checks and `serverTime`.
    public var now: @Sendable () -> Date
    /// Called once the server listens, with the port it is bound to.
    public var onStarted: @Sendable (_ port: Int) async -> Void
    /// Called once the gRPC door listens, with the port it is bound to.
    public var onGRPCStarted: @Sendable (_ port: Int) async -> Void

    /// A configuration serving `projectID` over REST on 127.0.0.1:8081 (and over gRPC when
    /// `grpcPort` is given), trusting `trustedAccounts` and the accounts of `jwksURL`.
    public init(
        projectID: String,
        trustedAccounts: [TrustedServiceAccount] = [],
        jwksURL: String? = nil,
        jwksMinimumRefreshInterval: Duration = .seconds(30),
        host: String = "127.0.0.1",
        port: Int = 8081,
        grpcPort: Int? = nil,
        verifiedTokenCacheCapacity: Int = 100_000,
        now: @escaping @Sendable () -> Date = { Date() },
        onStarted: @escaping @Sendable (_ port: Int) async -> Void = { _ in },
        onGRPCStarted: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) {
        self.projectID = projectID
        self.trustedAccounts = trustedAccounts
        self.jwksURL = jwksURL
        self.jwksMinimumRefreshInterval = jwksMinimumRefreshInterval
        self.host = host
        self.port = port
        self.grpcPort = grpcPort
        self.verifiedTokenCacheCapacity = verifiedTokenCacheCapacity
        self.now = now
        self.onStarted = onStarted
        self.onGRPCStarted = onGRPCStarted
    }
}
