import Foundation

/// The closing report of `fleetauth demo --delivery`, shaped like the on-demand one.
package struct DeliveryDemoReport {
    package let settings: DemoSettings
    package let counts: DemoStats.Counts
    package let latency: LatencySummary
    /// Tokens the token server issued, by kind.
    package let minted: [String: Int]
    /// Parcels closed with the outcome SUCCEEDED (of two per van).
    package let parcelsDelivered: Int
    /// Consumers that followed their shipment until its parcel was closed.
    package let shipmentsFollowed: Int
    /// Tracking readings the consumers took.
    package let shipmentReadings: Int
    /// The intruder's tricks: attempts, refusals and the first refusal's words.
    package let intruder: [String: (attempts: Int, refused: Int, firstAnswer: String)]
    /// Vans whose stored location is not their driver's last acknowledged one.
    package let lostVans: [String]
    package let elapsed: Duration

    /// No update lost, no honest app refused, every parcel delivered and followed to the end,
    /// no intruder through.
    package var succeeded: Bool {
        lostVans.isEmpty && counts.dropped == 0 && counts.invalidated + counts.stopped == 0
            && parcelsDelivered == 2 * settings.drivers && shipmentsFollowed == settings.drivers
            && intruder.values.allSatisfy { $0.refused == $0.attempts } && !intruder.isEmpty
    }

    /// Prints the report on standard output.
    package func print() {
        var lines = [
            "",
            "Report (\(String(format: "%.1f", elapsed.timeInterval)) s of delivering and following)",
            "  tokens minted by the token server: "
                + (minted.isEmpty
                    ? "none"
                    : minted.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")),
            "  delivery driver apps' tokens: \(counts.reused["delivery-driver"] ?? 0) reused from cache, \(counts.fetched["delivery-driver"] ?? 0) fetched, "
                + "\(counts.refreshedEarly["delivery-driver"] ?? 0) refreshed early",
            "  location updates: \(counts.reported) reported, \(counts.accepted) acknowledged, \(counts.superseded) superseded, \(counts.retries) retries, \(counts.dropped) dropped",
            String(
                format: "  update latency (report to acknowledgement): p50 %.1f ms, p99 %.1f ms",
                latency.p50Milliseconds, latency.p99Milliseconds),
            "  parcels: \(parcelsDelivered)/\(2 * settings.drivers) closed with outcome SUCCEEDED as their vans completed the stops",
            "  shipments: \(shipmentsFollowed)/\(settings.drivers) followed to CLOSED by their consumers, \(shipmentReadings) readings",
            "  auth failures of honest apps: \(counts.invalidated + counts.stopped) (Fleet Engine 401s: \(counts.invalidated), reporters stopped: \(counts.stopped))",
            "  intruder: \(intruder.values.reduce(0) { $0 + $1.attempts }) attempts, \(intruder.values.reduce(0) { $0 + $1.refused }) refused",
        ]
        for (trick, tally) in intruder.sorted(by: { $0.key < $1.key }) {
            lines.append(
                "    \(trick.padding(toLength: 50, withPad: " ", startingAt: 0)) \(tally.refused)/\(tally.attempts) refused"
            )
            lines.append("      \(tally.firstAnswer)")
        }
        lines.append(
            "  last acknowledged location stored: \(settings.drivers - lostVans.count)/\(settings.drivers) vans")
        lines.append(succeeded ? "Result: OK" : "Result: FAILED")
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
