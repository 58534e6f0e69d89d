/// Latency percentiles of a run, in milliseconds.
package struct LatencySummary: Codable, Sendable {
    /// How many latencies were measured.
    package let count: Int
    /// The median.
    package let p50Milliseconds: Double
    /// The 99th percentile.
    package let p99Milliseconds: Double
    /// The slowest.
    package let maxMilliseconds: Double

    /// The summary of `nanoseconds`, in any order.
    package init(_ nanoseconds: [Int64]) {
        let sorted = nanoseconds.sorted()
        count = sorted.count
        p50Milliseconds = Double(Self.percentile(0.5, of: sorted)) / 1e6
        p99Milliseconds = Double(Self.percentile(0.99, of: sorted)) / 1e6
        maxMilliseconds = Double(Self.percentile(1, of: sorted)) / 1e6
    }

    /// A summary of percentiles measured elsewhere (e.g. by `wrk`).
    package init(count: Int, p50Milliseconds: Double, p99Milliseconds: Double, maxMilliseconds: Double) {
        self.count = count
        self.p50Milliseconds = p50Milliseconds
        self.p99Milliseconds = p99Milliseconds
        self.maxMilliseconds = maxMilliseconds
    }

    /// The value below which `fraction` of `sorted` (ascending) lies, nearest rank; 0 when empty.
    package static func percentile(_ fraction: Double, of sorted: [Int64]) -> Int64 {
        guard !sorted.isEmpty else { return 0 }
        return sorted[Int((Double(sorted.count - 1) * fraction).rounded())]
    }
}
