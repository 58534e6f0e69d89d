import FleetEngineClient
import FleetEngineEmulator
import FleetTokens
import Foundation
import TestSupport
import Testing
import TokenServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A local Fleet Engine that trusts the token server's JWKS (`fleetauth fleet-engine
/// --trust-jwks`), not the token server's process: a rotation reaches it only through the key
/// set it fetches.
@Suite("key rotation, an engine trusting the JWKS")
struct JWKSRotationTests {
    @Test(
        "tokens of the new key and of the replaced ones are accepted, rotation after rotation, with no restart: none refused"
    )
    func rotationsReachAnEngineThroughTheJWKS() async throws {
        let fleet = try await TestFleet.start(tokenLifetime: .seconds(600))
        let jwks = try #require(URL(string: await fleet.jwksURL))
        let engine = try await FleetEngineEmulator.start(projectID: TestFleet.project, jwksURL: jwks)
        do {
            let backend = FleetEngineClient(
                baseURL: engine.baseURL, providerID: TestFleet.project,
                tokens: try ServerTokens(key: TestKeys.server, clock: fleet.clock))
            _ = try await backend.createVehicle(Vehicle(), id: "vehicle-0")
            let administration = await fleet.administration
            _ = try await administration.createAccount(
                username: "driver-0", password: TestFleet.password, roleName: "driver")
            _ = try await administration.assign(Resource(.vehicle, id: "vehicle-0"), to: "driver-0")
            let session = try await fleet.logIn("driver-0")

            /// A driver token from the token server, as the app gets it.
            func fetchToken() async throws -> String {
                var request = URLRequest(url: URL(string: await fleet.tokenURL("driver/vehicle-0"))!)
                request.setValue("Bearer \(session)", forHTTPHeaderField: "Authorization")
                let (body, _) = try await URLSession.shared.data(for: request)
                struct Answer: Decodable { let token: String }
                return try JSONDecoder().decode(Answer.self, from: body).token
            }
            /// The engine's status for a location update with `token`.
            func report(_ token: String) async throws -> Int {
                var request = URLRequest(
                    url: engine.baseURL.appendingPathComponent(
                        "v1/providers/\(TestFleet.project)/vehicles/vehicle-0"
                    ).appending(queryItems: [.init(name: "updateMask", value: "lastLocation")]))
                request.httpMethod = "PUT"
                request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                request.httpBody = Data(#"{"lastLocation":{"location":{"latitude":52.5,"longitude":13.4}}}"#.utf8)
                let (_, response) = try await URLSession.shared.data(for: request)
                return (response as? HTTPURLResponse)?.statusCode ?? 0
            }

            var tokens = [try await fetchToken()]
            #expect(try await report(tokens[0]) == 200)
            let ring = await fleet.keyRing
            for rotation in 1...3 {
                _ = try await ring.rotate(.driverSDKUser)
                tokens.append(try await fetchToken())
                // Every token handed out so far still works: the new key's and the replaced ones'.
                for (index, token) in tokens.enumerated() {
                    #expect(try await report(token) == 200, "rotation \(rotation): the token of key \(index)")
                }
            }
            let calls = try await engine.calls(method: "UpdateVehicle", resource: "vehicle-0")
            #expect(
                calls.allSatisfy { $0.status == "OK" },
                "\(calls.filter { $0.status != "OK" }.map { $0.rule ?? $0.status })")
        } catch {
            await engine.stop()
            await fleet.stop()
            throw error
        }
        await engine.stop()
        await fleet.stop()
    }
}
