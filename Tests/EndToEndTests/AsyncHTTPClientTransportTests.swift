import FleetDemo
import FleetEngineClient
import FleetTokenProvider
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The demo's shared AsyncHTTPClient transport: apps on it fetch tokens and call Fleet Engine
/// as apps on `URLSession` do, and its failures arrive as the same `URLError`s.
@Suite("AsyncHTTPClient transport", .timeLimit(.minutes(3)))
struct AsyncHTTPClientTransportTests {
    @Test func appsOnItFetchTokensAndCallFleetEngineWithThem() async throws {
        let fleet = try await TestFleet.start()
        try await fleet.enroll(0..<2)
        let transport = AsyncHTTPClientTransport(connectionsPerServer: 2)
        let driver = try await fleet.app(
            "driver-0", transport: transport, tokenTransport: ServerClockTransport(transport, clock: fleet.clock))
        let consumer = try await fleet.app(
            "consumer-0", transport: transport, tokenTransport: ServerClockTransport(transport, clock: fleet.clock))

        let sent = VehicleLocation(
            location: LatLng(latitude: 52.5, longitude: 13.4), heading: 90, updateTime: fleet.clock.now)
        let stored = try await driver.client.updateLocation(sent, ofVehicle: "vehicle-0")
        #expect(stored.lastLocation?.location == sent.location && stored.lastLocation?.heading == 90)
        #expect(try await consumer.client.trip("trip-0").vehicleId == "vehicle-0")
        #expect(driver.fetcher.current.started == 1 && consumer.fetcher.current.started == 1)

        // A 403 from the token server and one from Fleet Engine come through with their bodies.
        do {
            _ = try await driver.client.updateLocation(sent, ofVehicle: "vehicle-1")
            Issue.record("driver 0 got a token for vehicle 1")
        } catch FleetEngineError.tokenUnavailable(let error) {
            #expect(error as? TokenProviderError == .forbidden)
        }
        let pinned = try await fleet.app(
            "driver-0", template: "vehicle-0", transport: transport,
            tokenTransport: ServerClockTransport(transport, clock: fleet.clock))
        do {
            _ = try await pinned.client.vehicle("vehicle-1")
            Issue.record("driver 0 read vehicle 1")
        } catch FleetEngineError.refused(let status, let code, _, _) {
            #expect(status == 403 && code == "PERMISSION_DENIED")
        }
        await transport.shutdown()
        await fleet.stop()
    }

    @Test func nobodyListeningIsCannotConnectToHostAndSilenceIsTimedOut() async throws {
        let transport = AsyncHTTPClientTransport(connectionsPerServer: 1)
        let listener = try SilentListener()
        let silent = URLRequest(url: URL(string: "http://127.0.0.1:\(listener.port)/v1/tokens/driver/vehicle-0")!)

        let started = ContinuousClock.now
        let timedOut = await #expect(throws: URLError.self) {
            try await transport.send(silent, timeout: .milliseconds(300))
        }
        #expect(timedOut?.code == .timedOut)
        #expect(ContinuousClock.now - started < .seconds(20), "the 300 ms timeout, not a hang")

        listener.stop()
        let refused = await #expect(throws: URLError.self) { try await transport.send(silent, timeout: .seconds(30)) }
        #expect(refused?.code == .cannotConnectToHost)
        await transport.shutdown()
    }

    @Test func aCancelledCallerGetsCancellationError() async throws {
        let transport = AsyncHTTPClientTransport(connectionsPerServer: 1)
        let listener = try SilentListener()
        let silent = URLRequest(url: URL(string: "http://127.0.0.1:\(listener.port)/")!)
        let call = Task { try await transport.send(silent, timeout: .seconds(30)) }
        try await Task.sleep(for: .milliseconds(200))
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        listener.stop()
        await transport.shutdown()
    }
}
