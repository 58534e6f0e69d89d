/// Reads a sample's value out of a `/metrics` page (Prometheus text exposition).
package enum PrometheusText {
    /// The value of `sample` (a name with its labels as printed, e.g.
    /// `fleetauth_token_refusals_total{reason="bad_id"}`) in `text`, or `nil` when it is not there.
    package static func value(of sample: String, in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(sample + " ") {
            return Double(line.dropFirst(sample.count + 1))
        }
        return nil
    }
}
