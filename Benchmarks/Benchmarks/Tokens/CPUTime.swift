import Benchmark

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension BenchmarkMetric {
    /// How fast ours is against the reference it runs beside, in percent: the reference's CPU
    /// time divided by ours. Larger is better; 100 is as fast.
    static let percentOfReference = BenchmarkMetric.custom(
        "% of reference", polarity: .prefersLarger, useScalingFactor: false)
}

/// The CPU time of the calling thread.
enum CPUTime {
    /// Runs `ours` and `reference` `pairs` times each, one after the other, and returns how fast
    /// ours was in percent of the reference (their CPU times on this thread, reference ÷ ours).
    static func percentOfReference(pairs: Int, ours: () throws -> Void, reference: () -> Void) rethrows -> Int {
        var oursNanoseconds: UInt64 = 0
        var referenceNanoseconds: UInt64 = 0
        for _ in 0..<pairs {
            let start = now()
            try ours()
            let middle = now()
            reference()
            oursNanoseconds += middle - start
            referenceNanoseconds += now() - middle
        }
        return Int((Double(referenceNanoseconds) / Double(max(oursNanoseconds, 1)) * 100).rounded())
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
