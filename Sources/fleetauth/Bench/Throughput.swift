/// Times a repeated operation.
enum Throughput {
    /// Runs `operation` repeatedly for about `seconds` seconds; returns operations per second.
    static func measure(seconds: Double, _ operation: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + .milliseconds(Int(seconds * 1000))
        var count = 0
        var now = start
        repeat {
            for _ in 0..<32 { try operation() }
            count += 32
            now = clock.now
        } while now < deadline
        let elapsed = now - start
        return Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }

    /// The median of `values` (the mean of the middle two for an even count).
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
