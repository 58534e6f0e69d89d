import CommandSupport
import FleetAuthServerHTTP
import FleetTokens
import Foundation
import Logging
import TokenServer

/// The drivers of `fleetauth-bench token-server`: one driver account per vehicle, each
/// assigned to its vehicle and logged in, written to the token server's database and to the
/// files the load generator and the competitors (Node.js and C) read.
struct BenchFleet {
    /// One logged-in driver and the vehicle it drives.
    struct Driver {
        let username: String
        /// Its password, for the revocation benchmark's logins (never printed).
        let password: String
        let vehicleID: String
        let sessionToken: String
    }

    let drivers: [Driver]
    /// The accounts and keys the token server publishes, as a verifier trusts them.
    let trustedAccounts: [TrustedServiceAccount]
    /// The driver role's key file, which the competitor signs with too.
    let driverKeyFile: String
    /// When every session ends, in epoch seconds.
    let sessionsExpireAt: Int64

    /// Opens the token server's data directory (making keys and database), adds `count`
    /// drivers, and closes it again for the server process to open.
    static func create(count: Int, configuration: TokenServerConfiguration, logger: Logger) async throws -> BenchFleet {
        let server = try await TokenServer.open(configuration, logger: logger)
        let run = UUID().uuidString.prefix(8).lowercased()
        let now = Int64(Date().timeIntervalSince1970)
        let expiresAt = now + 24 * 3600
        var drivers: [Driver] = []
        do {
            let administration = AccountAdministration(store: server.store, hasher: PasswordHasher(cost: 4))
            for index in 0..<count {
                let driver = Driver(
                    username: "bench-\(run)-driver-\(index)",
                    password: SecretToken.generate(prefix: "pw-"),
                    vehicleID: "bench-\(run)-vehicle-\(index)",
                    sessionToken: SecretToken.generate(prefix: SecretToken.sessionPrefix)
                )
                _ = try await administration.createAccount(
                    username: driver.username, password: driver.password, roleName: "driver")
                _ = try await administration.assign(Resource(.vehicle, id: driver.vehicleID), to: driver.username)
                try await server.store.createSession(
                    tokenHash: SecretToken.hash(driver.sessionToken), username: driver.username, createdAt: now,
                    expiresAt: expiresAt)
                drivers.append(driver)
            }
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
        let keyFile = URL(fileURLWithPath: configuration.keysDirectory).appendingPathComponent(
            "\(FleetEngineRole.driverSDKUser.shortName).json"
        ).path
        return BenchFleet(
            drivers: drivers, trustedAccounts: server.keyRing.publishedAccounts, driverKeyFile: keyFile,
            sessionsExpireAt: expiresAt)
    }

    /// Writes `SESSION VEHICLE` lines, one per driver (mode 0600), for the wrk script.
    func writeRequests(to path: String) throws {
        try writeRequests(of: drivers, to: path)
    }

    /// Writes `SESSION VEHICLE` lines for `drivers` only (mode 0600).
    func writeRequests(of drivers: [Driver], to path: String) throws {
        let lines = drivers.map { "\($0.sessionToken) \($0.vehicleID)\n" }.joined()
        try Self.writeSecret(Data(lines.utf8), to: path)
    }

    /// Writes the competitors' fixtures (mode 0600): their key file and the same
    /// accounts, session hashes and assignments as the database holds.
    func writeCompetitorFixtures(to path: String) throws {
        let fixtures = CompetitorFixtures(
            keyFile: driverKeyFile,
            accounts: drivers.map { .init(username: $0.username, role: "driver") },
            sessions: drivers.map {
                .init(tokenHash: SecretToken.hash($0.sessionToken), username: $0.username, expiresAt: sessionsExpireAt)
            },
            assignments: drivers.map { .init(username: $0.username, kind: "vehicle", id: $0.vehicleID) }
        )
        try Self.writeSecret(try JSONEncoder().encode(fixtures), to: path)
    }

    private static func writeSecret(_ data: Data, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600])
        else {
            throw CommandFailure("cannot write \(path)")
        }
    }

    /// The shape `Benchmarks/node/token-server.mjs` and `Benchmarks/c-token-server/token-server.c` read.
    private struct CompetitorFixtures: Encodable {
        struct Account: Encodable { let username, role: String }
        struct Session: Encodable {
            let tokenHash, username: String
            let expiresAt: Int64
        }
        struct Assignment: Encodable { let username, kind, id: String }

        let keyFile: String
        let accounts: [Account]
        let sessions: [Session]
        let assignments: [Assignment]
    }
}
