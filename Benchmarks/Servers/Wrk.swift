import CommandSupport
import FleetDemo
import Foundation

/// Full-load runs with `wrk` (Debian package `wrk`): a load generator in C costs a fraction of
/// the CPU per request of one inside this process, so more of the machine is left to the
/// server. Its CPU time is measured and reported together with the server's.
enum Wrk {
    /// What a run saw.
    struct Result {
        /// Answers with a 2xx status.
        let succeeded: Int
        /// Other answers and socket errors.
        let failed: Int
        /// How long the run took, in seconds.
        let seconds: Double
        /// Latency of every answer (closed loop).
        let latency: LatencySummary
        /// CPU time (user and system) `wrk` used.
        let cpuSeconds: Double
        /// The lines the script's `report()` printed.
        let reportLines: [Substring]
    }

    /// Runs `wrk` against `url` with the script `Benchmarks/wrk/<script>` (Lua; may define
    /// `report()`, called after the summary in wrk's main state), passing it `arguments`; the
    /// script, with `wrk/summary.lua` appended, is written into `folder`.
    static func run(
        url: String, connections: Int, threads: Int, seconds: Int, script: String, arguments: [String], folder: String
    ) async throws -> Result {
        let path = folder + "/load-\(UUID().uuidString).lua"
        let text =
            try String(contentsOfFile: try BenchmarkFiles.path("wrk/" + script), encoding: .utf8)
            + String(contentsOfFile: try BenchmarkFiles.path("wrk/summary.lua"), encoding: .utf8)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try await ChildProcess.run(
            [
                "wrk", "--threads", String(threads), "--connections", String(connections), "--duration", "\(seconds)s",
                "--timeout", "10s", "--script", path, url, "--",
            ] + arguments, standardError: .discarded, timeout: .seconds(seconds + 60)
        ).checked()
        let lines = run.output.split(separator: "\n")
        guard let line = lines.first(where: { $0.hasPrefix(marker) }) else {
            throw CommandFailure("wrk printed no summary (is the Debian package 'wrk' installed?)")
        }
        let numbers = line.dropFirst(marker.count).split(separator: " ").compactMap { Double($0) }
        guard numbers.count == 7 else { throw CommandFailure("cannot read wrk's summary: \(line)") }
        let (answers, statusErrors, socketErrors) = (Int(numbers[0]), Int(numbers[2]), Int(numbers[3]))
        return Result(
            succeeded: answers - statusErrors,
            failed: statusErrors + socketErrors,
            seconds: numbers[1] / 1e6,
            latency: LatencySummary(
                count: answers, p50Milliseconds: numbers[4] / 1000, p99Milliseconds: numbers[5] / 1000,
                maxMilliseconds: numbers[6] / 1000),
            cpuSeconds: run.cpuSeconds,
            reportLines: lines.filter { !$0.hasPrefix(marker) && $0.hasPrefix(reportPrefix) }.map {
                $0.dropFirst(reportPrefix.count)
            }
        )
    }

    /// The prefix of the lines a script's `report()` prints, to tell them from wrk's own.
    static let reportPrefix = "report "

    private static let marker = "fleetauth-wrk-summary "
}
