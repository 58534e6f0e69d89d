import Foundation

/// The machine's CPU time by kind, from the first line of Linux's `/proc/stat`: what lets a
/// benchmark report how much of the machine the hypervisor took for other guests ("steal")
/// while it ran, the usual reason one run is slower than the last on a virtual machine.
struct HostCPU {
    /// Clock ticks of every kind (user, nice, system, idle, iowait, irq, softirq, steal).
    let totalTicks: UInt64
    /// Clock ticks the hypervisor gave to other guests while this one had work.
    let stolenTicks: UInt64

    /// The counters now, or `nil` where there is no `/proc/stat` (macOS).
    static func now() -> HostCPU? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
        else { return nil }
        let ticks = line.split(separator: " ").dropFirst().prefix(8).compactMap { UInt64($0) }
        guard ticks.count == 8 else { return nil }
        return HostCPU(totalTicks: ticks.reduce(0, +), stolenTicks: ticks[7])
    }

    /// The percentage of the machine's time stolen between `start` and `end`, or `nil` when
    /// either is unknown.
    static func stolenPercent(from start: HostCPU?, to end: HostCPU?) -> Double? {
        guard let start, let end, end.totalTicks > start.totalTicks else { return nil }
        return Double(end.stolenTicks - start.stolenTicks) / Double(end.totalTicks - start.totalTicks) * 100
    }
}
