import FleetTokens
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
    import FleetAuthCodecs
#endif

/// Someone who tries to move `vehicle-0` without being its driver, round and round through
/// a list of tricks, each of which Fleet Engine (or the token server) must refuse.
struct DemoIntruder: Sendable {
    /// One trick: its name, and the request it makes (`nil` when it cannot be made now, e.g.
    /// while the token server is down).
    struct Trick: Sendable {
        let name: String
        let request: @Sendable () async -> URLRequest?
    }

    let network: DemoNetwork
    let stats: DemoStats
    let tricks: [Trick]

    /// The tricks, using driver 1's and consumer 0's own sessions (the intruder stole them)
    /// and the genuine driver key only to make a token that has already expired.
    init(
        network: DemoNetwork, stats: DemoStats, driverKey: ServiceAccountKey, driverSession: String,
        consumerSession: String
    ) throws {
        self.network = network
        self.stats = stats
        let unknownKey = try ServiceAccountKey.generate(
            projectID: driverKey.projectID, role: .driverSDKUser, accountID: "fe-intruder")
        let stranger = try TokenMinter(key: unknownKey)
        let expired = try TokenMinter(key: driverKey, now: { Date() - 3600 })
        let now = Int64(Date().timeIntervalSince1970)
        let inDriverKeysName = FleetEngineClaims(
            issuer: driverKey.clientEmail, subject: driverKey.clientEmail, issuedAt: now, expiresAt: now + 3600,
            authorization: TokenKind.driver(vehicleID: "vehicle-0").authorizationClaims)
        // The genuine key's header (its kid) on claims in its name, signed by another key.
        let genuineHeader = try expired.mint(.driver(vehicleID: "vehicle-0")).token.split(separator: ".")[0]
        let signedByStranger = try stranger.sign(inDriverKeysName).split(separator: ".")
        let forged = "\(genuineHeader).\(signedByStranger[1]).\(signedByStranger[2])"
        let move = { @Sendable (token: String?) in Self.moveVehicle0(network, token: token) }
        let token = { @Sendable (path: String, session: String) in
            await Self.fetchToken(network, path: path, session: session)
        }
        tricks = [
            Trick(name: "no token") { move(nil) },
            Trick(name: "alg none") { move(Self.unsigned(vehicleID: "vehicle-0")) },
            Trick(name: "signed by an unknown key") { move(try? stranger.mint(.driver(vehicleID: "vehicle-0")).token) },
            Trick(name: "the driver key's kid, signed by another key") { move(forged) },
            Trick(name: "a genuine token that expired an hour ago") {
                move(try? expired.mint(.driver(vehicleID: "vehicle-0"), lifetime: .seconds(60)).token)
            },
            Trick(name: "driver 1's token for vehicle-0") { await token("driver/vehicle-1", driverSession).map(move) },
            Trick(name: "consumer 0's token for vehicle-0") {
                await token("consumer/trip-0", consumerSession).map(move)
            },
            Trick(name: "driver 1 asks the token server for vehicle-0") {
                Self.tokenRequest(network, path: "driver/vehicle-0", session: driverSession)
            },
        ]
    }

    /// Plays one trick every `interval` until cancelled.
    func run(every interval: Duration) async {
        for round in 0... {
            guard !Task.isCancelled else { return }
            let trick = tricks[round % tricks.count]
            if let request = await trick.request() { await attempt(trick.name, request) }
            try? await Task.sleep(for: interval)
        }
    }

    private func attempt(_ name: String, _ request: URLRequest) async {
        guard let (body, response) = try? await network.transport.send(request, timeout: DemoNetwork.timeout) else {
            return
        }
        struct Refusal: Decodable {
            struct Detail: Decodable { let status: String?, message: String? }
            let error: Detail
        }
        let detail = try? JSONDecoder().decode(Refusal.self, from: body).error
        let answer = "\(response.statusCode) \(detail?.status ?? ""): \(detail?.message ?? "")"
        stats.intrusion(name, refused: response.statusCode == 401 || response.statusCode == 403, answer: answer)
    }

    private static func moveVehicle0(_ network: DemoNetwork, token: String?) -> URLRequest {
        var request = URLRequest(
            url: network.fleetEngine.appendingPathComponent("v1/providers/\(network.project)/vehicles/vehicle-0"))
        request.url = URL(string: request.url!.absoluteString + "?updateMask=lastLocation")
        request.httpMethod = "PUT"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = Data(#"{"lastLocation":{"location":{"latitude":48.8584,"longitude":2.2945}}}"#.utf8)
        return request
    }

    private static func tokenRequest(_ network: DemoNetwork, path: String, session: String) -> URLRequest {
        var request = URLRequest(url: network.tokenServer.appendingPathComponent("v1/tokens/\(path)"))
        request.setValue("Bearer \(session)", forHTTPHeaderField: "Authorization")
        return request
    }

    private static func fetchToken(_ network: DemoNetwork, path: String, session: String) async -> String? {
        guard
            let (body, response) = try? await network.transport.send(
                tokenRequest(network, path: path, session: session), timeout: DemoNetwork.timeout),
            response.statusCode == 200
        else { return nil }
        struct Answer: Decodable { let token: String }
        return try? JSONDecoder().decode(Answer.self, from: body).token
    }

    /// An unsigned token (`alg: none`) claiming `vehicleID`.
    private static func unsigned(vehicleID: String) -> String {
        let now = Int(Date().timeIntervalSince1970)
        let header = Base64URL.encode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))
        let claims = Base64URL.encode(
            Data(
                #"{"iss":"x@y","sub":"x@y","aud":"https://fleetengine.googleapis.com/","iat":\#(now),"exp":\#(now + 600),"authorization":{"vehicleid":"\#(vehicleID)"}}"#
                    .utf8))
        return header + "." + claims + "."
    }
}
