import CommandSupport
import FleetEngineClient
import FleetTokenProvider
import FleetTokens
import Foundation
import Locking
import TestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `fleetauth serve` in an ``ImpairedLink``'s namespace, listening on both of its links, with
/// one driver account assigned to a vehicle of the engine. The test sets things up and looks at
/// the outcome through the control link; the app goes through the app link.
final class ServersBehindLink: Sendable {
    static let project = "local-project"
    static let driver = "driver-1"
    static let vehicle = "vehicle-1"
    private static let password = "a-password-for-bad-networks"
    private static let consoleKey = "a-console-key-for-bad-networks"

    /// Where the two servers are, seen across one of the links.
    struct Addresses: Sendable {
        let tokenServer: String
        let fleetEngine: URL

        init(host: String) {
            tokenServer = "http://\(host):8080"
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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bad-network-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data((consoleKey + "\n").utf8).write(to: URL(fileURLWithPath: "\(folder)/console-key"))
        let arguments = [
            try ChildProcess.fleetauth, "serve", "--data-dir", "\(folder)/data", "--host", "0.0.0.0",
            "--token-lifetime", String(tokenLifetime), "--console-key", "\(folder)/console-key",
        ]
        let servers = ServersBehindLink(link: link, arguments: arguments, folder: folder, process: try await launch(arguments, on: link))
        try await servers.enroll()
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

    /// The account `driver-1` assigned to `vehicle-1`, which is made with a server token.
    private func enroll() async throws {
        let adminKey = try String(contentsOfFile: "\(folder)/data/admin-key", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        try await send("POST", "\(control.tokenServer)/v1/admin/accounts", bearer: adminKey,
                       body: ["username": Self.driver, "password": Self.password, "role": "driver"], expecting: 201)
        try await send("PUT", "\(control.tokenServer)/v1/admin/vehicles/\(Self.vehicle)/driver", bearer: adminKey,
                       body: ["username": Self.driver], expecting: 200)
        _ = try await operatorClient().createVehicle(Vehicle(), id: Self.vehicle)
    }

    /// Logs `username` in across the app link and returns the session token.
    func logIn(_ username: String) async throws -> String {
        let body = try await send("POST", "\(app.tokenServer)/v1/sessions", body: ["username": username, "password": Self.password], expecting: 201)
        struct Session: Decodable { let sessionToken: String }
        return try JSONDecoder().decode(Session.self, from: body).sessionToken
    }

    /// Every position of `vehicle` the engine accepted, oldest first, from its console.
    func trail(of vehicle: String) async throws -> [LatLng] {
        var request = URLRequest(url: control.fleetEngine.appendingPathComponent("console/api/trail/vehicle/\(vehicle)"))
        request.setValue(Self.consoleKey, forHTTPHeaderField: "X-Console-Key")
        let body = try await Self.answer(to: request, expecting: 200)
        struct Trail: Decodable { let points: [[Double]] }
        return try JSONDecoder().decode(Trail.self, from: body).points.map { LatLng(latitude: $0[0], longitude: $0[1]) }
    }

    /// Where the engine has `vehicle`, read with a server token.
    func lastLocation(of vehicle: String) async throws -> LatLng? {
        try await operatorClient().vehicle(vehicle).lastLocation?.location
    }

    /// A client of the engine across the control link, with server tokens of the servers' key.
    private func operatorClient() throws -> FleetEngineClient {
        let key = try ServiceAccountKey(contentsOf: "\(folder)/data/keys/server.json")
        return FleetEngineClient(
            baseURL: control.fleetEngine, providerID: Self.project, tokens: try ServerTokens(key: key, clock: SystemTokenClock()))
    }

    @discardableResult
    private func send(_ method: String, _ url: String, bearer: String? = nil, body: [String: String], expecting status: Int) async throws -> Data {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        bearer.map { request.setValue("Bearer \($0)", forHTTPHeaderField: "Authorization") }
        request.httpBody = try JSONEncoder().encode(body)
        return try await Self.answer(to: request, expecting: status)
    }

    private static func answer(to request: URLRequest, expecting status: Int) async throws -> Data {
        let (body, response) = try await URLSession.shared.data(for: request)
        let answered = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard answered == status else {
            throw TestFailure("\(request.httpMethod ?? "GET") \(request.url?.path ?? ""): \(answered) \(String(decoding: body, as: UTF8.self))")
        }
        return body
    }
}
