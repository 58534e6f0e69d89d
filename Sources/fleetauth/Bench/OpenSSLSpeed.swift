import Foundation

/// Runs `openssl speed rsa2048`, the reference every token benchmark is compared with.
struct OpenSSLSpeed {
    /// RSA-2048 operations per second.
    struct Result {
        let signsPerSecond: Double
        let verifiesPerSecond: Double
    }

    /// Measures for `seconds` seconds, on `processes` processes (`-multi`) when more than one.
    static func measure(seconds: Int, processes: Int = 1) throws -> Result {
        try parse(ChildProcess.output(of: arguments(seconds: seconds, processes: processes)))
    }

    /// Measures like ``measure(seconds:processes:)`` and also returns the sign rate per
    /// CPU-second, times `processes`: what the processes would do with the cores to themselves
    /// however busy the machine is (`openssl speed` divides by elapsed time). The sign phase's
    /// CPU time is taken as half of the run's: it signs for `seconds`, then verifies for as long.
    static func measureWithCPU(seconds: Int, processes: Int) throws -> (result: Result, signsPerSecondOnCores: Double) {
        let run = try ChildProcess.run(arguments(seconds: seconds, processes: processes))
        let result = try parse(run.output)
        let signingCPUSeconds = max(run.cpuSeconds / 2, 1e-9)
        return (result, result.signsPerSecond * Double(seconds) / signingCPUSeconds * Double(processes))
    }

    private static func arguments(seconds: Int, processes: Int) -> [String] {
        var arguments = ["openssl", "speed", "-seconds", String(seconds)]
        if processes > 1 { arguments += ["-multi", String(processes)] }
        return arguments + ["rsa2048"]
    }

    /// Reads the summary line: `rsa 2048 bits 0.000675s 0.000023s 1481.5 43125.3` (with
    /// `-multi`, `rsa 2048 bits 0.000338s 0.000012s 2962.0 86250.6`).
    static func parse(_ output: String) throws -> Result {
        for line in output.split(separator: "\n") where line.hasPrefix("rsa 2048 bits") || line.hasPrefix("rsa  2048 bits") {
            let numbers = line.split(separator: " ").compactMap { Double($0) }
            if numbers.count >= 3, let verifies = numbers.last {
                return Result(signsPerSecond: numbers[numbers.count - 2], verifiesPerSecond: verifies)
            }
        }
        throw CommandFailure("could not read 'openssl speed rsa2048' output (is openssl installed?)")
    }
}
