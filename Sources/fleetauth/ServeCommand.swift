import ArgumentParser
import FleetAuthServerHTTP
import FleetAuthServerStorage
import Foundation
import LocalFleetEngine
import LocalStack
import Logging
import ServiceLifecycle
import TokenServer

/// `fleetauth serve`: the token server and the local Fleet Engine in one process, the Fleet
/// Engine trusting each of the token server's signing keys with its role; prints what to try.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the token server and the local Fleet Engine together, ready to try with curl.",
        discussion: """
            The first start makes DIR with one signing key per role (DIR/keys/), the admin API key \
            (DIR/admin-key, mode 0600) and the databases; later starts reuse them.
            """
    )

    @Option(help: "The data directory of both servers.")
    var dataDir = "fleetauth-data"

    @Option(help: "The Cloud project id: the keys' project and the Fleet Engine's provider.")
    var project = "local-project"

    @Option(help: "The address both servers listen on.")
    var host = "127.0.0.1"

    @Option(help: "The token server's port (0 picks a free one).")
    var tokenServerPort = 8080

    @Option(help: "The local Fleet Engine's port (0 picks a free one).")
    var fleetEnginePort = 8081

    @Option(help: "The local Fleet Engine's gRPC port, HTTP/2 (over TLS with --tls-cert) (0 picks a free one).")
    var grpcPort = 8082

    @Option(help: "Lifetime of each token the token server issues, in seconds (1 to 3600).")
    var tokenLifetime = 3600

    @Option(help: "A PostgreSQL URL for both servers' rows instead of SQLite files in the data directory.")
    var databaseURL: String?

    @Flag(
        help:
            "Sign the app roles' tokens keylessly, through IAM as Google would (a Google stand-in started here), and trust those accounts by email."
    )
    var keyless = false

    @Option(help: "The Google stand-in's port with --keyless (0 picks a free one).")
    var standInPort = 0

    @OptionGroup var browsers: AllowOriginOptions

    @OptionGroup var tokenRequests: TokenRequestOptions

    @OptionGroup var signingKeys: SigningKeyOptions

    @OptionGroup var console: ConsoleOptions

    @OptionGroup var runtime: ServerRuntimeOptions

    func validate() throws {
        _ = try browsers.allowedOrigins()
        guard (0...65535).contains(standInPort) else { throw ValidationError("--stand-in-port must be 0 to 65535") }
        guard (1...3600).contains(tokenLifetime) else {
            throw ValidationError("--token-lifetime must be 1 to 3600 seconds")
        }
    }

    func run() async throws {
        let logger = runtime.bootstrapLogging(label: "fleetauth.serve", project: project)
        let local = keyless ? try await LocalKeyless.start(port: standInPort, project: project, logger: logger) : nil
        var failure: (any Error)?
        do {
            try await serve(signingThrough: local, logger: logger)
        } catch {
            failure = error
        }
        // Stopped however serving ended, a failure to open the servers included.
        await local?.stop()
        if let failure { throw failure }
    }

    /// Opens both servers (app tokens signed through `local` when keyless) and runs them until
    /// SIGTERM or SIGINT, then closes them.
    private func serve(signingThrough local: LocalKeyless?, logger: Logger) async throws {
        let options = TokenServerOptions(
            tokenLifetime: .seconds(tokenLifetime), tokenRequestsPerMinute: tokenRequests.tokenRequestsPerMinute,
            record: tokenRequests.record,
            keyless: local?.signing(project: project) ?? KeylessSigning(), keyOverlap: signingKeys.overlap,
            allowedOrigins: try browsers.allowedOrigins().union(.loopback), servesExamples: true,
            servesConsole: console.toggle.servesTokenServerConsole(host: host), lifecycle: runtime.lifecycle(),
            accessLog: runtime.accessLog, tls: try runtime.tlsCertificates())
        let (tokenServer, database, engineLock) = try await LocalServers.open(
            TokenServerConfiguration(
                dataDirectory: dataDir, databaseURL: databaseURL, projectID: project, options: options), logger: logger)
        defer { engineLock.release() }
        let banner = ServeBanner(
            dataDirectory: dataDir, project: project, host: host, scheme: runtime.scheme,
            adminKey: tokenServer.adminKeySetup,
            accounts: tokenServer.keyRing.publishedAccounts.count + options.keyless.signers.count,
            database: database.location,
            googleStandIn: local?.baseURL,
            console: console.describe(
                access: try console.access(host: host), baseURL: "\(runtime.scheme)://\(host):PORT"),
            tokenConsole: console.toggle.describeTokenServerConsole(
                host: host, baseURL: "\(runtime.scheme)://\(host):PORT"))
        let engine = LocalFleetEngine(
            trusting: tokenServer,
            googleCertsURL: local?.baseURL ?? LocalFleetEngineConfiguration.defaultGoogleCertsURL,
            database: database, host: host, port: fleetEnginePort, grpcPort: grpcPort,
            console: try console.access(host: host), logger: logger,
            onStarted: { await banner.fleetEngineStarted(on: $0) }, onGRPCStarted: { await banner.grpcStarted(on: $0) })
        let services: [any Service] = [
            tokenServer.service(host: host, port: tokenServerPort) { await banner.tokenServerStarted(on: $0) },
            engine,
        ]
        var failure: (any Error)?
        do {
            try await ServerProcess.run(services, lifecycle: options.lifecycle, tls: options.tls, logger: logger) {
                await tokenServer.keyRing.importKeyFiles()
            }
        } catch {
            failure = error
        }
        await database.shutdown()
        if let failure { throw failure }
    }
}

/// Prints, once both servers (and the Fleet Engine's gRPC door) listen, where everything is and three `curl` lines to try:
/// create a vehicle, get a driver token, send a location. Never prints a secret: the admin key
/// is read from its file by the shell.
actor ServeBanner {
    private let dataDirectory: String
    private let project: String
    private let host: String
    /// `https` when the servers speak TLS, else `http`.
    private let scheme: String
    private let adminKey: AdminKeyFile.Setup?
    private let accounts: Int
    private let database: DatabaseLocation
    private let googleStandIn: String?
    /// Where the console is (`PORT` standing for the engine's port), or why there is none.
    private let console: String
    /// Where the token server's console is (`PORT` standing for the token server's port), or why there is none.
    private let tokenConsole: String
    private var tokenServerPort: Int?
    private var fleetEnginePort: Int?
    private var grpcPort: Int?

    init(
        dataDirectory: String, project: String, host: String, scheme: String, adminKey: AdminKeyFile.Setup?,
        accounts: Int, database: DatabaseLocation,
        googleStandIn: String?, console: String, tokenConsole: String
    ) {
        self.dataDirectory = URL(fileURLWithPath: dataDirectory).standardizedFileURL.path
        self.project = project
        self.host = host
        self.scheme = scheme
        self.adminKey = adminKey
        self.accounts = accounts
        self.database = database
        self.googleStandIn = googleStandIn
        self.console = console
        self.tokenConsole = tokenConsole
    }

    func tokenServerStarted(on port: Int) {
        tokenServerPort = port
        printIfReady()
    }

    func fleetEngineStarted(on port: Int) {
        fleetEnginePort = port
        printIfReady()
    }

    func grpcStarted(on port: Int) {
        grpcPort = port
        printIfReady()
    }

    private func printIfReady() {
        guard let tokenServerPort, let fleetEnginePort, let grpcPort else { return }
        let tokens = "\(scheme)://\(host):\(tokenServerPort)"
        let fleet = "\(scheme)://\(host):\(fleetEnginePort)/v1/providers/\(project)"
        // The running binary's own path, whichever way it was started (from the PATH, by a
        // relative path, through `swift run`), so that the line works when pasted anywhere.
        let fleetauth =
            Bundle.main.executableURL?.resolvingSymlinksInPath().path
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        let admin = "Authorization: Bearer $(cat \(dataDirectory)/admin-key)"
        let login = #"{"username":"alice","password":"try-it-alice"}"#
        let lines = [
            "FleetAuth is running (project \(project), data in \(dataDirectory); Fleet Engine rows in \(database))",
            "  token server:  \(tokens)   (JWKS \(tokens)/.well-known/jwks.json)",
            "  Fleet Engine:  \(fleet)/   (trusts the token server's \(accounts) signing accounts, each with its role)",
            "  Fleet Engine gRPC: \(host):\(grpcPort)   (maps.fleetengine.v1 VehicleService and TripService, maps.fleetengine.delivery.v1 DeliveryService; \(scheme == "https" ? "TLS" : "plaintext"))",
            "  browsers:      \(tokens)/sdk/fleetauth.js (the authTokenFetcher module); example page "
                + "\(tokens)/examples/?fleetEngine=\(scheme)://\(host):\(fleetEnginePort)&provider=\(project)",
            "  console:       \(console.replacingOccurrences(of: "PORT", with: String(fleetEnginePort)))   (the fleet live, and why each request was refused)",
            "  token console: \(tokenConsole.replacingOccurrences(of: "PORT", with: String(tokenServerPort)))   (accounts, assignments, keys, the record of tokens)",
            "  admin API key: \(dataDirectory)/admin-key\(adminKeyNote)",
            googleStandIn.map {
                "  keyless:       app tokens signed through IAM (Google stand-in \($0)); no key files for those roles"
            }
                ?? "  signing keys:  \(dataDirectory)/keys/<role>.json (mode 0600)",
            "",
            "Try it (bash). First a driver account 'alice', assigned to vehicle-1:",
            "  curl -s -X POST \(tokens)/v1/admin/accounts -H \"\(admin)\" -d '{\"username\":\"alice\",\"password\":\"try-it-alice\",\"role\":\"driver\"}'",
            "  curl -s -X PUT \(tokens)/v1/admin/vehicles/vehicle-1/driver -H \"\(admin)\" -d '{\"username\":\"alice\"}'",
            "1. Create vehicle-1 with a server token signed by the token server's server key:",
            "  curl -s -X POST '\(fleet)/vehicles?vehicleId=vehicle-1' -H \"Authorization: Bearer $(\(fleetauth) mint --key \(dataDirectory)/keys/server.json --kind server)\" "
                + #"-d '{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"}}'"#,
            "2. Log in as alice and get her driver token for vehicle-1:",
            "  TOKEN=$(curl -s \(tokens)/v1/tokens/driver/vehicle-1 -H \"Authorization: Bearer $(curl -s -X POST \(tokens)/v1/sessions -d '\(login)' "
                + #"| sed -nE 's/.*"sessionToken": *"([^"]*)".*/\1/p')" | sed -nE 's/.*"token": *"([^"]*)".*/\1/p')"#,
            "3. Send vehicle-1's location as its driver:",
            "  curl -s -X PUT '\(fleet)/vehicles/vehicle-1?updateMask=lastLocation' -H \"Authorization: Bearer $TOKEN\" "
                + #"-d '{"lastLocation":{"location":{"latitude":52.52,"longitude":13.405}}}'"#,
            "",
        ]
        FleetEngineCommand.announce(lines.joined(separator: "\n"))
    }

    private var adminKeyNote: String {
        switch adminKey {
        case .created: " (made now, mode 0600; shown nowhere else)"
        case .fileDoesNotMatch: " (WARNING: this file's key is not the database's admin key; it will be refused)"
        case .databaseOnly: " (none here: this database's admin key is in another data directory)"
        case .fromFile, nil: ""
        }
    }
}
