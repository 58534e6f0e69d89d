import FleetDemo
import FleetEngineClient
import LocalStack
import Testing

/// `fleetauth demo`, played short on each HTTP client: quick tokens, quick reports, one
/// token-server outage.
@Suite("fleetauth demo")
struct DemoTests {
    /// Four drivers for 16 s, 4-second tokens, quick reports and readings: long enough for
    /// every check below to hold on a machine whose cores other suites keep busy.
    static var short: DemoSettings {
        var settings = DemoSettings()
        settings.drivers = 4
        settings.duration = 16
        settings.tokenLifetime = 4
        settings.reportInterval = 0.25
        settings.followInterval = 0.5
        return settings
    }

    @Test(arguments: DemoHTTPClient.allCases)
    func aShortDemoThroughATokenServerRestartLosesNothingAndRefusesTheIntruder(httpClient: DemoHTTPClient) async throws
    {
        var settings = Self.short
        settings.httpClient = httpClient
        settings.tokenServerRestarts = 1
        settings.tokenServerDowntime = 2
        let report = try await settings.play()
        let counts = report.counts

        #expect(report.succeeded)
        #expect(report.lostVehicles.isEmpty && counts.dropped == 0 && report.authFailures == 0)
        // Every location is accepted or superseded by a newer one. How many are superseded
        // depends on how busy the machine is; at least one in two seconds per driver gets through.
        #expect(counts.accepted + counts.superseded == counts.reported, "\(counts)")
        #expect(counts.accepted >= 4 * 8, "\(counts)")
        #expect(counts.tripsCompleted == 4)
        #expect((report.minted["driver"] ?? 0) >= 4 * 2 && (report.minted["consumer"] ?? 0) >= 4)
        #expect((counts.refreshedEarly["driver"] ?? 0) >= 4, "4-second tokens were refreshed during the drive")
        #expect(counts.intrusions.count == 8, "every trick was tried")
        #expect(counts.intrusionsAccepted == 0)
        for (trick, tally) in counts.intrusions {
            #expect(
                tally.firstAnswer.hasPrefix("401 UNAUTHENTICATED")
                    || tally.firstAnswer.hasPrefix("403 PERMISSION_DENIED"), "\(trick): \(tally.firstAnswer)")
        }
    }
}

/// `fleetauth demo --keyless`: the apps' tokens signed through IAM (the Google stand-in), the
/// keys rotated halfway, and nothing refused or lost.
@Suite("fleetauth demo --keyless")
struct KeylessDemoTests {
    @Test func aShortKeylessDemoThroughAKeyRotationRefusesNoHonestApp() async throws {
        var settings = DemoTests.short
        settings.keyless = true
        let report = try await settings.play()
        let keyless = try #require(report.keyless)
        #expect(report.succeeded)
        #expect(report.authFailures == 0 && report.lostVehicles.isEmpty, "\(report.counts)")
        #expect(keyless.signJwt >= 8, "every app's first tokens were signed by IAM")
        #expect(keyless.metadataToken == 1, "one access token for the whole drive")
        // The rotation's new keys were published before they signed (as Google publishes the keys
        // it manages), so the keys fetched at start already held them: no honest app was refused.
        #expect(keyless.publicKeys >= LocalKeyless.roles.count, "every role's keys were fetched")
        #expect(report.counts.intrusionsAccepted == 0)
    }

    /// `fleetauth demo --delivery`, short: every parcel is delivered and followed to the end,
    /// no location is lost, and each of the intruder's tricks is refused every time.
    @Test func aShortDeliveryDemoDeliversEveryParcelAndRefusesTheIntruder() async throws {
        let report = try await DemoTests.short.playDeliveries()
        #expect(report.succeeded)
        #expect(report.parcelsDelivered == 8 && report.shipmentsFollowed == 4 && report.lostVans.isEmpty)
        #expect(report.counts.accepted + report.counts.superseded == report.counts.reported, "\(report.counts)")
        #expect(
            (report.minted["delivery-untrusted-driver"] ?? 0) >= 4 && (report.minted["delivery-consumer"] ?? 0) >= 4,
            "\(report.minted)")
        #expect(
            report.intruder.count == 3
                && report.intruder.values.allSatisfy { $0.attempts > 0 && $0.refused == $0.attempts })
    }
}
