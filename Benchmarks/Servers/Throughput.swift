#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Times a repeated operation by the CPU time of the calling thread, the way `openssl speed`
/// divides by user CPU time: so the ratios hold even while other work shares the core.
enum Throughput {
    /// Runs `operation` repeatedly for about `seconds` seconds of this thread's CPU time;
    /// returns operations per CPU second.
    static func measure(seconds: Double, _ operation: () throws -> Void) rethrows -> Double {
        let start = threadCPUSeconds()
        var count = 0
        var elapsed = 0.0
        repeat {
            for _ in 0..<32 { try operation() }
            count += 32
            elapsed = threadCPUSeconds() - start
        } while elapsed < seconds
        return Double(count) / elapsed
    }

    /// The median of `values` (the mean of the middle two for an even count).
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// CPU time (user and system) of the whole process so far, in seconds.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
            usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// CPU time used by the calling thread so far, in seconds.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
