import ArgumentParser
import CommandSupport
import FleetAuthServerHTTP
import FleetTokens
import Foundation
import LocalFleetEngine
import Logging
import ServiceLifecycle

/// `fleetauth fleet-engine [run]`: runs the local Fleet Engine, trusting key files, JWKS files
/// or the token server's JWKS URL.
struct FleetEngineRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract:
            "Run the local Fleet Engine: Fleet Engine's vehicles and trips API, checking every token as Google does.",
        discussion: """
            Vehicles and trips are kept in DIR/\(EngineDatabase.sqliteFileName) (or PostgreSQL with --database-url); an acknowledged \
            update survives a crash. Trust accounts with --trust [ROLE=]FILE (a service-account key file or a JWKS file; \
            the role may be left out for keys made by 'fleetauth keygen'), --trust-jwks URL (fetched again when a \
            token names an unknown key) and/or --trust-account ROLE=EMAIL (an account whose keys Google manages).
            """
    )

    @OptionGroup var store: EngineStoreOptions

    @Option(name: .customLong("trust"), help: "A trusted key file or JWKS file, as [ROLE=]FILE (repeatable).")
    var trustFiles: [String] = []

    @Option(
        name: .customLong("trust-jwks"), help: "A trusted JWKS URL, e.g. http://127.0.0.1:8080/.well-known/jwks.json.")
    var trustJWKS: String?

    @OptionGroup var google: GoogleAccountOptions

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8081

    @Option(
        help:
            "The gRPC port, HTTP/2 (over TLS with --tls-cert): VehicleService, TripService and gRPC health (0 picks a free one)."
    )
    var grpcPort = 8082

    @OptionGroup var console: ConsoleOptions

    @OptionGroup var runtime: ServerRuntimeOptions

    func validate() throws {
        guard !trustFiles.isEmpty || trustJWKS != nil || !google.trustAccount.isEmpty else {
            throw ValidationError(
                "trust someone: give --trust [ROLE=]FILE, --trust-jwks URL or --trust-account ROLE=EMAIL")
        }
        _ = try google.accounts()
        if let trustJWKS, !(trustJWKS.hasPrefix("http://") || trustJWKS.hasPrefix("https://")) {
            throw ValidationError("--trust-jwks takes an http(s) URL; give a JWKS file with --trust")
        }
    }

    func run() async throws {
        var accounts: [TrustedServiceAccount] = []
        for argument in trustFiles {
            do {
                accounts += try TrustedAccountFile.accounts(argument: argument)
            } catch {
                throw CommandFailure(error.description)
            }
        }
        let project = store.project
        let logger = runtime.bootstrapLogging(label: "fleetauth.fleet-engine", project: project)
        let lifecycle = runtime.lifecycle()
        let tls = try runtime.tlsCertificates()
        let scheme = runtime.scheme
        let (database, lock) = try await store.open(logger: logger)
        defer { lock.release() }
        let consoleAccess = try console.access(host: host)
        let configuration = LocalFleetEngineConfiguration(
            projectID: project, trustedAccounts: accounts, jwksURL: trustJWKS,
            googleManagedAccounts: try google.accounts(), googleCertsURL: google.googleCertsURL, host: host, port: port,
            grpcPort: grpcPort,
            console: consoleAccess, lifecycle: lifecycle, accessLog: runtime.accessLog, tls: tls,
            onStarted: { [host, project, accounts, google, console] port in
                FleetEngineCommand.announce(
                    "local Fleet Engine on \(scheme)://\(host):\(port)/v1/providers/\(project)/ (data: \(database.location))"
                )
                FleetEngineCommand.announce(
                    "  console: \(console.describe(access: consoleAccess, baseURL: "\(scheme)://\(host):\(port)"))")
                for account in accounts {
                    FleetEngineCommand.announce("  trusts \(account.email) as \(account.role.rawValue)")
                }
                for account in (try? google.accounts()) ?? [] {
                    FleetEngineCommand.announce(
                        "  trusts \(account.email) as \(account.role.rawValue) (keys from \(google.googleCertsURL))")
                }
            },
            onGRPCStarted: { [host, tls] port in
                FleetEngineCommand.announce(
                    "local Fleet Engine gRPC on \(host):\(port) (maps.fleetengine.v1 VehicleService and TripService, maps.fleetengine.delivery.v1 DeliveryService; \(tls == nil ? "plaintext" : "TLS"))"
                )
            })
        do {
            let engine = LocalFleetEngine(
                configuration: configuration, store: SQLEngineStore(database: database), logger: logger)
            try await ServerProcess.run([engine], lifecycle: lifecycle, tls: tls, logger: logger)
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
    }

}
