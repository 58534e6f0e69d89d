import CommandSupport
import FleetAuthLocking
import FleetEngineClient
import FleetTokenProvider
import FleetTokens
import Foundation
import TestSupport

/// `fleetauth serve` in an ``ImpairedLink``'s namespace, listening on both of its links, with
/// one driver account assigned to a vehicle of the engine. The test sets things up and looks at
/// the outcome through the control link; the app goes through the app link.
final class ServersBehindLink: Sendable {
    static let project = "local-project"
    static let driver = "driver-1"
    static let vehicle = "vehicle-1"
    private static let consoleKey = "a-console-key-for-bad-networks"

    /// Where the two servers are, seen across one of the links.
    struct Addresses: Sendable {
        let tokenServer: LinkHTTPClient
        let fleetEngine: URL

        init(host: String) {
            tokenServer = LinkHTTPClient(base: "http://\(host):8080")
            fleetEngine = URL(string: "http://\(host):8081")!
        }
    }

    /// The servers across the app link.
    let app: Addresses
    /// The servers across the control link.
    let control: Addresses
    private let link: ImpairedLink
    private let arguments: [String]
    private let folder: String
    private let process: Locked<ChildProcess>

    private init(link: ImpairedLink, arguments: [String], folder: String, process: ChildProcess) {
        app = Addresses(host: link.appAddress)
        control = Addresses(host: link.controlAddress)
        self.link = link
        self.arguments = arguments
        self.folder = folder
        self.process = Locked(process)
    }

    /// Starts the servers (tokens living `tokenLifetime` seconds) in a new folder and enrolls
    /// the driver of ``vehicle``.
    static func start(on link: ImpairedLink, tokenLifetime: Int) async throws -> ServersBehindLink {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bad-network-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data((consoleKey + "\n").utf8).write(to: URL(fileURLWithPath: "\(folder)/console-key"))
        let arguments = [
            try ChildProcess.fleetauth, "serve", "--data-dir", "\(folder)/data", "--host", "0.0.0.0",
            "--token-lifetime", String(tokenLifetime), "--console-key", "\(folder)/console-key",
        ]
        let servers = ServersBehindLink(
            link: link, arguments: arguments, folder: folder, process: try await launch(arguments, on: link))
        _ = try await servers.control.tokenServer.enroll(
            driver, role: "driver", assignedTo: "vehicles/\(vehicle)", adminKeyFile: "\(folder)/data/admin-key")
        _ = try await servers.operatorClient().createVehicle(Vehicle(), id: vehicle)
        return servers
    }

    private static func launch(_ arguments: [String], on link: ImpairedLink) async throws -> ChildProcess {
        let process = try link.start(arguments)
        _ = try await process.output(containing: "Try it")
        return process
    }

    /// Kills the servers (SIGKILL: nothing flushed) and starts them again on the same data.
    func restart() async throws {
        process.withLock { $0 }.kill()
        let process = try await Self.launch(arguments, on: link)
        self.process.withLock { $0 = process }
    }

    /// Stops the servers and removes their folder.
    func stop() {
        process.withLock { $0 }.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Every position of `vehicle` the engine accepted, oldest first, from its console.
    func trail(of vehicle: String) async throws -> [LatLng] {
        let console = LinkHTTPClient(base: control.fleetEngine.absoluteString)
        let answer = try await console.send(
            "GET", "/console/api/trail/vehicle/\(vehicle)", headers: ["X-Console-Key": Self.consoleKey], expecting: 200)
        struct Trail: Decodable { let points: [[Double]] }
        return try JSONDecoder().decode(Trail.self, from: Data(answer.body.utf8)).points.map {
            LatLng(latitude: $0[0], longitude: $0[1])
        }
    }

    /// Where the engine has `vehicle`, read with a server token.
    func lastLocation(of vehicle: String) async throws -> LatLng? {
        try await operatorClient().vehicle(vehicle).lastLocation?.location
    }

    /// A client of the engine across the control link, with server tokens of the servers' key.
    private func operatorClient() throws -> FleetEngineClient {
        let key = try ServiceAccountKey(contentsOf: "\(folder)/data/keys/server.json")
        return FleetEngineClient(
            baseURL: control.fleetEngine, providerID: Self.project,
            tokens: try ServerTokens(key: key, clock: SystemTokenClock()))
    }
}
