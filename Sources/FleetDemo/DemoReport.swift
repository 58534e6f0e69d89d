import FleetTokenProvider
import Foundation
import GoogleStandIn

/// The demo's closing report: tokens minted and used, updates, latency, trips, intruder
/// attempts by trick, and whether anything was lost or refused.
package struct DemoReport {
    package let settings: DemoSettings
    package let counts: DemoStats.Counts
    package let latency: LatencySummary
    /// Tokens the token server issued, by kind.
    package let minted: [String: Int]
    /// What the Google stand-in was asked, with `--keyless`.
    package let keyless: StandInAccounts.Calls?
    /// Vehicles whose stored location is not their driver's last acknowledged one.
    package let lostVehicles: [String]
    package let elapsed: Duration

    /// Refusals an honest app met: Fleet Engine 401s, stopped reporters, token fetches the
    /// token server refused.
    package var authFailures: Int {
        counts.invalidated + counts.stopped + counts.followErrors.count
    }

    /// No update lost, no honest app refused, no intruder through, every trip followed to the end.
    package var succeeded: Bool {
        lostVehicles.isEmpty && counts.dropped == 0 && authFailures == 0 && counts.intrusionsAccepted == 0
            && counts.tripsCompleted == settings.drivers
    }

    /// Prints the report on standard output.
    package func print() {
        let intruderAttempts = counts.intrusions.values.reduce(0) { $0 + $1.attempts }
        var lines = [
            "",
            "Report (\(String(format: "%.1f", elapsed.timeInterval)) s of driving and following)",
            "  tokens minted by the token server: " + Self.list(minted)
                + " (\(minted.values.reduce(0, +)) in all, the intruder's included)",
        ]
        for kind in ["driver", "consumer"] {
            lines.append(
                "  \(kind) apps' tokens: \(counts.reused[kind] ?? 0) reused from cache, \(counts.fetched[kind] ?? 0) fetched while none was usable, "
                    + "\(counts.refreshedEarly[kind] ?? 0) refreshed early in the background, \(counts.fetchFailures[kind] ?? 0) fetches failed"
            )
        }
        if let keyless {
            lines.append(
                "  keyless: \(keyless.signJwt) IAM signatures (the rest reused), \(keyless.metadataToken) metadata access tokens, "
                    + "\(keyless.publicKeys) public-key fetches by the Fleet Engine; keys rotated halfway")
        }
        if settings.tokenServerRestarts > 0 {
            lines.append(
                "  token server: stopped and restarted \(settings.tokenServerRestarts) times, down \(settings.tokenServerDowntime) s each"
            )
        }
        lines += [
            "  location updates: \(counts.reported) reported, \(counts.accepted) acknowledged, \(counts.superseded) superseded by a newer one before sending, "
                + "\(counts.retries) retries, \(counts.dropped) dropped",
            String(
                format: "  update latency (report to acknowledgement): p50 %.1f ms, p99 %.1f ms",
                latency.p50Milliseconds, latency.p99Milliseconds),
            "  trips: \(counts.tripsCompleted)/\(settings.drivers) followed to COMPLETE by their consumers, \(counts.tripReadings) readings",
            "  auth failures of honest apps: \(authFailures) (Fleet Engine 401s: \(counts.invalidated), reporters stopped: \(counts.stopped), followers ended by an error: \(counts.followErrors.count))",
            "  intruder: \(intruderAttempts) attempts, \(intruderAttempts - counts.intrusionsAccepted) refused",
        ]
        for (trick, tally) in counts.intrusions.sorted(by: { $0.key < $1.key }) {
            // The answer whole, on a line of its own: it says which rule refused.
            lines.append(
                "    \(trick.padding(toLength: 46, withPad: " ", startingAt: 0)) \(tally.refused)/\(tally.attempts) refused"
            )
            lines.append("      \(tally.firstAnswer)")
        }
        lines.append(
            "  last acknowledged location stored: \(settings.drivers - lostVehicles.count)/\(settings.drivers) vehicles; lost updates: \(lostVehicles.count + counts.dropped)"
        )
        lines.append(
            succeeded
                ? "Result: OK"
                : "Result: FAILED"
                    + (lostVehicles.isEmpty ? "" : " (lost: \(lostVehicles.prefix(10).joined(separator: ", ")))"))
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    private static func list(_ counts: [String: Int]) -> String {
        counts.isEmpty
            ? "none" : counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}
