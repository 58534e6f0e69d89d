import FleetAuthServerHTTP
import FleetAuthServerStorage
import Foundation

/// How a token server behaves, whatever its storage.
package struct TokenServerOptions: Sendable {
    /// How long each token is valid (1 s to 3600 s).
    package var tokenLifetime: Duration
    /// How long a session lasts after login.
    package var sessionLifetime: Duration
    /// bcrypt's cost for new passwords (4 to 31).
    package var bcryptCost: UInt8
    /// When failed logins are throttled.
    package var loginThrottle: LoginThrottle.Policy
    /// Token requests each session may make a minute (60 by default); 0 for no limit.
    package var tokenRequestsPerMinute: Int
    /// The record of token requests: on, its buffer, its retention.
    package var record: TokenRecorder.Settings
    /// The OpenID Connect issuers whose ID tokens are accepted (none by default).
    package var oidc: OIDCSettings
    /// The roles that sign through IAM instead of key files (none by default), and reuse.
    package var keyless: KeylessSigning
    /// How long a replaced signing key stays published after its last token can have expired
    /// (60 s by default): replicas that signed with it until they heard of the rotation.
    package var keyOverlap: Duration
    /// The web origins whose pages may log in and get tokens (none by default).
    package var allowedOrigins: AllowedOrigins
    /// Whether the example web page is served under `/examples/` (`serve` and `demo`).
    package var servesExamples: Bool
    /// Whether the console is served under `/console/` (`--console`: on by default on loopback).
    package var servesConsole: Bool
    /// The clock (tests move it).
    package var now: @Sendable () -> Date
    /// Slow and idle clients, draining and shutdown (`--header-timeout`, `--shutdown-delay`, …).
    package var lifecycle: ServerLifecycle
    /// Whether each answered request is logged (`--access-log`).
    package var accessLog: Bool
    /// The certificate the port serves HTTPS with (`--tls-cert`, `--tls-key`); plain HTTP without.
    package var tls: TLSCertificates?

    /// Options; the defaults suit production.
    package init(
        tokenLifetime: Duration = .seconds(3600),
        sessionLifetime: Duration = .seconds(12 * 3600),
        bcryptCost: UInt8 = 12,
        loginThrottle: LoginThrottle.Policy = .init(),
        tokenRequestsPerMinute: Int = 60,
        record: TokenRecorder.Settings = .init(),
        oidc: OIDCSettings = .init(),
        keyless: KeylessSigning = .init(),
        keyOverlap: Duration = .seconds(60),
        allowedOrigins: AllowedOrigins = .none,
        servesExamples: Bool = false,
        servesConsole: Bool = false,
        now: @escaping @Sendable () -> Date = { Date() },
        lifecycle: ServerLifecycle = ServerLifecycle(),
        accessLog: Bool = false,
        tls: TLSCertificates? = nil
    ) {
        self.lifecycle = lifecycle
        self.accessLog = accessLog
        self.tls = tls
        self.tokenLifetime = tokenLifetime
        self.sessionLifetime = sessionLifetime
        self.bcryptCost = bcryptCost
        self.loginThrottle = loginThrottle
        self.tokenRequestsPerMinute = tokenRequestsPerMinute
        self.record = record
        self.oidc = oidc
        self.keyless = keyless
        self.keyOverlap = keyOverlap
        self.allowedOrigins = allowedOrigins
        self.servesExamples = servesExamples
        self.servesConsole = servesConsole
        self.now = now
    }

    /// The current time in whole epoch seconds.
    var epochSeconds: Int64 { Int64(now().timeIntervalSince1970.rounded(.down)) }
}

/// Where a token server keeps its data: keys and admin key in a data directory, rows in its
/// SQLite file or in PostgreSQL.
package struct TokenServerConfiguration: Sendable {
    /// The data directory (`keys/`, `admin-key`, `token-server.sqlite`).
    package var dataDirectory: String
    /// A PostgreSQL URL; `nil` keeps rows in the data directory's SQLite file.
    package var databaseURL: String?
    /// The Google Cloud project id the keys are made for.
    package var projectID: String
    /// Behaviour.
    package var options: TokenServerOptions

    /// The SQLite file's name inside the data directory.
    package static let sqliteFileName = "token-server.sqlite"

    /// A configuration.
    package init(
        dataDirectory: String, databaseURL: String? = nil, projectID: String = "local-project",
        options: TokenServerOptions = .init()
    ) {
        self.dataDirectory = dataDirectory
        self.databaseURL = databaseURL
        self.projectID = projectID
        self.options = options
    }

    /// Where the rows live.
    package var databaseLocation: DatabaseLocation {
        DatabaseLocation(dataDirectory: dataDirectory, fileName: Self.sqliteFileName, databaseURL: databaseURL)
    }

    /// `DIR/keys`.
    package var keysDirectory: String { path("keys") }
    /// `DIR/admin-key`.
    package var adminKeyPath: String { path("admin-key") }

    private func path(_ name: String) -> String {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent(name).path
    }
}
