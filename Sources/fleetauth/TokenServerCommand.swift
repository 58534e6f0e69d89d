import ArgumentParser
import CommandSupport
import FleetAuthServerHTTP
import FleetAuthServerStorage
import Foundation
import Logging
import TokenServer

/// Where the token server's data is, for `token-server`, `accounts` and `assign`.
struct TokenServerDataOptions: ParsableArguments {
    @Option(help: "The token server's data directory (keys/, admin-key, token-server.sqlite, token-records.sqlite).")
    var dataDir: String?

    @Option(
        help: ArgumentHelp(
            "Keep accounts, assignments and sessions in PostgreSQL (postgres://user:password@host:port/db) instead of SQLite.",
            discussion: "Defaults to $FLEETAUTH_DATABASE_URL, which keeps the password out of the process list."
        ))
    var databaseURL: String?

    /// The URL given, or the one in the environment.
    var effectiveDatabaseURL: String? {
        databaseURL ?? ProcessInfo.processInfo.environment["FLEETAUTH_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Where the rows are; the SQLite file must exist already (made by the server's first start).
    func existingLocation() throws -> DatabaseLocation {
        if let url = effectiveDatabaseURL { return .postgres(url: url) }
        guard let dataDir else { throw ValidationError("give --data-dir DIR (or --database-url)") }
        let location = DatabaseLocation(
            dataDirectory: dataDir, fileName: TokenServerConfiguration.sqliteFileName, databaseURL: nil)
        if case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) {
            throw CommandFailure(
                "no token server database in \(dataDir): start 'fleetauth token-server --data-dir \(dataDir)' once first"
            )
        }
        return location
    }

    /// Runs `body` with the store open, turning refusals into one clear line.
    func withStore<Result>(_ body: (TokenServerStore) async throws -> Result) async throws -> Result {
        var logger = Logger(label: "fleetauth", factory: DeferredMetadataLogHandler.standardError)
        logger.logLevel = .warning
        let store = try await TokenServerStore.open(try existingLocation(), logger: logger)
        do {
            let result = try await body(store)
            await store.close()
            return result
        } catch {
            await store.close()
            throw CommandFailure.explaining(error)
        }
    }
}

extension CommandFailure {
    /// The failure for a refusal of the token server's rules or store.
    static func explaining(_ error: any Error) -> any Error {
        switch error {
        case let error as APIError: CommandFailure(error.message)
        case let error as StoreError: CommandFailure(error.description)
        default: error
        }
    }
}

/// `fleetauth token-server`: the trusted server that logs apps in and vends scoped tokens.
struct TokenServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token-server",
        abstract: "Run the token server: logins, assignments, scoped Fleet Engine tokens.",
        discussion: """
            The first start with an empty data directory creates one service-account key per role \
            in DIR/keys/ (none for roles that sign through IAM with --signer), the SQLite database, \
            and the admin API key in DIR/admin-key (mode 0600). Replicas share one keys directory and \
            one PostgreSQL database (--database-url).
            """
    )

    @OptionGroup var data: TokenServerDataOptions

    @OptionGroup var keyless: KeylessOptions

    @OptionGroup var browsers: AllowOriginOptions

    @OptionGroup var tokenRequests: TokenRequestOptions

    @OptionGroup var signingKeys: SigningKeyOptions

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: "Google Cloud project id of the signing keys.")
    var project = "local-project"

    @Option(help: "Lifetime of each token in seconds (1 to 3600).")
    var tokenLifetime = 3600

    @Option(help: "Lifetime of each login session in seconds.")
    var sessionLifetime = 12 * 3600

    @Option(help: "bcrypt cost for new passwords (4 to 31).")
    var bcryptCost = 12

    @Option(
        help: ArgumentHelp(
            "Trust ID tokens of this OpenID Connect issuer, exactly as their iss spells it (repeatable).",
            discussion:
                "E.g. https://securetoken.google.com/PROJECT for Firebase Authentication. Needs --oidc-audience.",
            valueName: "url"
        ))
    var oidcIssuer: [String] = []

    @Option(
        help: ArgumentHelp(
            "Accept ID tokens whose aud holds this value (repeatable): the app's client id; for Firebase, the project id.",
            valueName: "aud"
        ))
    var oidcAudience: [String] = []

    @OptionGroup var runtime: ServerRuntimeOptions

    @OptionGroup var console: ConsoleSwitch

    /// The OpenID Connect issuers and audiences given.
    private var oidc: OIDCSettings { OIDCSettings(issuers: oidcIssuer, audiences: oidcAudience) }

    func validate() throws {
        guard data.dataDir != nil else {
            throw ValidationError("give --data-dir DIR (keys and the admin key live there)")
        }
        guard (1...3600).contains(tokenLifetime) else {
            throw ValidationError("--token-lifetime must be 1 to 3600 seconds")
        }
        guard sessionLifetime >= 60 else { throw ValidationError("--session-lifetime must be at least 60 seconds") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard (4...31).contains(bcryptCost) else { throw ValidationError("--bcrypt-cost must be 4 to 31") }
        if let problem = oidc.problem { throw ValidationError("--oidc-issuer/--oidc-audience: \(problem)") }
        _ = try keyless.keylessSigning()
        _ = try browsers.allowedOrigins()
    }

    func run() async throws {
        let logger = runtime.bootstrapLogging(label: "fleetauth.token-server", project: project)
        let configuration = TokenServerConfiguration(
            dataDirectory: data.dataDir ?? ".",
            databaseURL: data.effectiveDatabaseURL,
            projectID: project,
            options: TokenServerOptions(
                tokenLifetime: .seconds(tokenLifetime),
                sessionLifetime: .seconds(sessionLifetime),
                bcryptCost: UInt8(bcryptCost),
                tokenRequestsPerMinute: tokenRequests.tokenRequestsPerMinute,
                record: tokenRequests.record,
                oidc: oidc,
                keyless: try keyless.keylessSigning(),
                keyOverlap: signingKeys.overlap,
                allowedOrigins: try browsers.allowedOrigins(),
                servesConsole: console.servesTokenServerConsole(host: host),
                lifecycle: runtime.lifecycle(),
                accessLog: runtime.accessLog,
                tls: try runtime.tlsCertificates()
            )
        )
        let server = try await TokenServer.open(configuration, logger: logger)
        report(server.adminKeySetup, configuration: configuration)
        let host = self.host
        let scheme = runtime.scheme
        let service = server.service(host: host, port: port) { port in
            Self.say("token server listening on \(scheme)://\(host):\(port) (\(configuration.databaseLocation))")
            Self.say(
                "console: " + console.describeTokenServerConsole(host: host, baseURL: "\(scheme)://\(host):\(port)"))
            if !oidcIssuer.isEmpty { Self.say("accepting ID tokens of \(oidcIssuer.joined(separator: ", "))") }
            for (role, email) in configuration.options.keyless.signers.sorted(by: {
                $0.key.shortName < $1.key.shortName
            }) {
                Self.say("\(role.shortName) tokens signed through IAM as \(email)")
            }
        }
        try await ServerProcess.run(
            [service], lifecycle: server.options.lifecycle, tls: server.options.tls, logger: logger
        ) {
            await server.keyRing.importKeyFiles()
        }
    }

    /// Writes a line to standard output at once (unbuffered), so that a script waiting for the
    /// port or the admin key's path sees it while the server runs.
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Says where the admin key is, never what it is.
    private func report(_ setup: AdminKeyFile.Setup?, configuration: TokenServerConfiguration) {
        switch setup {
        case .created(let path):
            Self.say("created the admin API key in \(path) (mode 0600; it is not shown anywhere else)")
        case .fileDoesNotMatch(let path):
            Self.say("warning: the key in \(path) is not this database's admin key; it will be refused")
        case .fromFile, .databaseOnly, nil:
            break
        }
    }
}
