import FleetEngineClient
import FleetTokenProvider
import Foundation
import TestSupport
import Testing

/// One simulated driver app: logged in as `driver-i`, reporting `vehicle-i`'s location with
/// its own caching provider, everything it does recorded.
struct TestDriver: Sendable {
    let index: Int
    let reporter: VehicleReporter
    let fetcher: CountingFetcher
    let log: EventLog

    var vehicleID: String { reporter.vehicleID }

    /// The location reported at `step`: the step is in the latitude, the driver in the longitude.
    func location(step: Int) -> VehicleLocation {
        VehicleLocation(
            location: LatLng(latitude: 52 + Double(step) / 1000, longitude: 13 + Double(index) / 100), heading: 90,
            speed: 8)
    }

    /// The step a stored or acknowledged location was reported at.
    static func step(of location: VehicleLocation?) -> Int? {
        location?.location.map { Int((($0.latitude - 52) * 1000).rounded()) }
    }
}

/// Reporter backoff for tests: quick, and patient enough to outlast a server restart.
let quickRetries = RetryPolicy(maxAttempts: 400, initialBackoff: .milliseconds(10), maxBackoff: .milliseconds(100))

extension TestFleet {
    /// Enrolls drivers `0..<count`, logs each in and gives each a reporter.
    func drivers(_ count: Int) async throws -> [TestDriver] {
        try await enroll(0..<count)
        var drivers: [TestDriver] = []
        for index in 0..<count {
            let app = try await app("driver-\(index)")
            let reporter = VehicleReporter(vehicleID: "vehicle-\(index)", client: app.client, retryPolicy: quickRetries)
            app.log.follow(reporter)
            drivers.append(TestDriver(index: index, reporter: reporter, fetcher: app.fetcher, log: app.log))
        }
        return drivers
    }

    /// Plays `steps`, one second of the fleet's clock each: moves the clock, has every driver
    /// report its location, and waits until each is acknowledged and no token fetch is running.
    func drive(_ drivers: [TestDriver], steps: Range<Int>) async throws {
        for step in steps {
            clock.advance(by: .seconds(1))
            for driver in drivers { await driver.reporter.report(driver.location(step: step)) }
            try await waitUntil("every driver's step \(step) is acknowledged") {
                drivers.allSatisfy { TestDriver.step(of: $0.log.current.accepted.last) == step }
            }
            try await waitUntil("no token fetch runs at step \(step)") {
                drivers.allSatisfy { $0.fetcher.current.running == 0 }
            }
        }
    }

    /// Where each driver's vehicle is stored, as step numbers, read with a server token.
    func storedSteps(of drivers: [TestDriver]) async throws -> [Int?] {
        let fleet = try await operatorClient
        var steps: [Int?] = []
        for driver in drivers {
            steps.append(TestDriver.step(of: try await fleet.vehicle(driver.vehicleID).lastLocation))
        }
        return steps
    }
}
