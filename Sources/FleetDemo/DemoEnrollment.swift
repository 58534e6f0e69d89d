import FleetEngineClient
import FleetTokenProvider
import FleetTokens
import Foundation
import TokenServer

/// What the fleet operator sets up before the apps start: for each `i`, vehicle `vehicle-i`
/// and trip `trip-i` in Fleet Engine (with a server token), and accounts `driver-i` and
/// `consumer-i` on the token server, assigned to them.
struct DemoEnrollment: Sendable {
    static let password = "demo-password-not-secret"

    let fleet: FleetEngineClient
    let administration: AccountAdministration

    /// Enrolls `0..<count`, eight at a time.
    func enroll(_ count: Int) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                if index >= 8 { try await group.next() }
                group.addTask { try await enroll(index: index) }
            }
            try await group.waitForAll()
        }
    }

    private func enroll(index: Int) async throws {
        let route = DemoRoute(index: index)
        _ = try await fleet.createVehicle(
            Vehicle(lastLocation: VehicleLocation(location: route.point(at: 0))), id: "vehicle-\(index)")
        let trip = Trip(
            vehicleId: "vehicle-\(index)", pickupPoint: .init(point: route.point(at: 0.25)),
            dropoffPoint: .init(point: route.point(at: 0.75)))
        _ = try await fleet.createTrip(trip, id: "trip-\(index)")
        _ = try await administration.createAccount(
            username: "driver-\(index)", password: Self.password, roleName: "driver")
        _ = try await administration.createAccount(
            username: "consumer-\(index)", password: Self.password, roleName: "consumer")
        _ = try await administration.assign(Resource(.vehicle, id: "vehicle-\(index)"), to: "driver-\(index)")
        _ = try await administration.assign(Resource(.trip, id: "trip-\(index)"), to: "consumer-\(index)")
    }
}

/// Server tokens minted on the spot with one of the token server's keys, as the fleet
/// operator's own backend has them: on-demand server tokens, or `kind`'s.
struct ServerTokenProvider: AuthorizationTokenProvider {
    let minter: TokenMinter
    var kind = TokenKind.server

    func token(for context: AuthorizationContext) async throws -> String {
        try minter.mint(kind).token
    }

    func invalidate(_ context: AuthorizationContext) async {}
}

/// A vehicle's loop: a circle of about 300 m around its own centre near Berlin's, once round
/// per demo.
struct DemoRoute: Sendable {
    let index: Int

    /// Where the vehicle is after `fraction` (0 to 1) of the demo.
    func point(at fraction: Double) -> LatLng {
        let centre = LatLng(
            latitude: 52.45 + Double(index % 25) * 0.006, longitude: 13.30 + Double(index / 25 % 25) * 0.01)
        let angle = 2 * Double.pi * (fraction + Double(index) / 7)
        return LatLng(
            latitude: centre.latitude + 0.0027 * sin(angle), longitude: centre.longitude + 0.0045 * cos(angle))
    }

    /// The heading in degrees when at `fraction`: along the circle, anticlockwise.
    func heading(at fraction: Double) -> Int {
        let degrees = Int((360 * (fraction + Double(index) / 7)).rounded()) % 360
        return (360 - degrees) % 360
    }
}
