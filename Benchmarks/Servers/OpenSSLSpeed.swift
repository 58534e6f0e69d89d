import CommandSupport
import Foundation

/// Runs `openssl speed rsa2048`, the reference every token benchmark is compared with.
struct OpenSSLSpeed {
    /// RSA-2048 operations per second.
    struct Result {
        let signsPerSecond: Double
        let verifiesPerSecond: Double
    }

    /// Measures for `seconds` seconds, on `processes` processes (`-multi`) when more than one.
    ///
    /// One process reports operations per CPU-second of its own (two of them sharing one core
    /// each report the whole core's rate), so its rate holds however busy the machine is; the
    /// `-multi` total divides by elapsed time and drops when other work takes the cores.
    static func measure(seconds: Int, processes: Int = 1) async throws -> Result {
        var arguments = ["openssl", "speed", "-seconds", String(seconds)]
        if processes > 1 { arguments += ["-multi", String(processes)] }
        let run = try await ChildProcess.run(
            arguments + ["rsa2048"], standardError: .discarded, timeout: .seconds(4 * seconds + 60))
        return try parse(try run.checked().output)
    }

    /// Reads the summary line: `rsa 2048 bits 0.000675s 0.000023s 1481.5 43125.3` (with
    /// `-multi`, `rsa 2048 bits 0.000338s 0.000012s 2962.0 86250.6`).
    static func parse(_ output: String) throws -> Result {
        for line in output.split(separator: "\n")
        where line.hasPrefix("rsa 2048 bits") || line.hasPrefix("rsa  2048 bits") {
            let numbers = line.split(separator: " ").compactMap { Double($0) }
            if numbers.count >= 3, let verifies = numbers.last {
                return Result(signsPerSecond: numbers[numbers.count - 2], verifiesPerSecond: verifies)
            }
        }
        throw CommandFailure("could not read 'openssl speed rsa2048' output (is openssl installed?)")
    }
}
