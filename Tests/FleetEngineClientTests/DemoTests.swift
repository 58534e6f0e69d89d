import FleetEngineClient
import Testing

@testable import fleetauth

/// `fleetauth demo`, played short on each HTTP client: quick tokens, quick reports, one
/// token-server outage.
@Suite("fleetauth demo")
struct DemoTests {
    @Test(arguments: DemoHTTPClient.allCases)
    func aShortDemoThroughATokenServerRestartLosesNothingAndRefusesTheIntruder(httpClient: DemoHTTPClient) async throws {
        let command = try DemoCommand.parse([
            "--http-client", httpClient.rawValue, "--drivers", "4", "--duration", "8", "--token-lifetime", "4", "--report-interval", "0.25", "--follow-interval", "0.5",
            "--token-server-restarts", "1", "--token-server-downtime", "2",
        ])
        let report = try await command.play()
        let counts = report.counts

        #expect(report.succeeded)
        #expect(report.lostVehicles.isEmpty && counts.dropped == 0 && report.authFailures == 0)
        // Every location is accepted or superseded by a newer one. How many are superseded
        // depends on how busy the machine is; at least one a second per driver gets through.
        #expect(counts.accepted + counts.superseded == counts.reported, "\(counts)")
        #expect(counts.accepted >= 4 * 8, "\(counts)")
        #expect(counts.tripsCompleted == 4)
        #expect((report.minted["driver"] ?? 0) >= 4 * 2 && (report.minted["consumer"] ?? 0) >= 4)
        #expect((counts.refreshedEarly["driver"] ?? 0) >= 4, "4-second tokens were refreshed during the drive")
        #expect(counts.intrusions.count == 8, "every trick was tried")
        #expect(counts.intrusionsAccepted == 0)
        for (trick, tally) in counts.intrusions {
            #expect(tally.firstAnswer.hasPrefix("401 UNAUTHENTICATED") || tally.firstAnswer.hasPrefix("403 PERMISSION_DENIED"), "\(trick): \(tally.firstAnswer)")
        }
    }
}

/// `fleetauth demo --keyless`: the apps' tokens signed through IAM (the Google stand-in), the
/// keys rotated halfway, and nothing refused or lost.
@Suite("fleetauth demo --keyless")
struct KeylessDemoTests {
    @Test func aShortKeylessDemoThroughAKeyRotationRefusesNoHonestApp() async throws {
        let command = try DemoCommand.parse([
            "--keyless", "--drivers", "4", "--duration", "8", "--token-lifetime", "4", "--report-interval", "0.25", "--follow-interval", "0.5",
        ])
        let report = try await command.play()
        let keyless = try #require(report.keyless)
        #expect(report.succeeded)
        #expect(report.authFailures == 0 && report.lostVehicles.isEmpty, "\(report.counts)")
        #expect(keyless.signJwt >= 8, "every app's first tokens were signed by IAM")
        #expect(keyless.metadataToken == 1, "one access token for the whole drive")
        #expect(keyless.publicKeys >= 2 * LocalKeyless.roles.count, "the keys were fetched at start and again after the rotation")
        #expect(report.counts.intrusionsAccepted == 0)
    }
}
