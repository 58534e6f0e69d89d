import ArgumentParser

/// `fleetauth-bench`: release-build benchmarks reported as ratios against references
/// measured in the same run. Apart from the shipped `fleetauth`, which it runs as a process
/// where a server is measured from outside.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleetauth-bench",
        abstract: "Benchmarks (build with -c release; pin with 'taskset -c 1' for stable numbers).",
        subcommands: [
            CodecBench.self, TokenServerBench.self, TokenServerOperationsBench.self, KeylessBench.self,
            FleetEngineBench.self, FleetStoreBench.self,
            GRPCFloorsBench.self, BrowserFetcherBench.self, FleetEngineScaleBench.self, DeliveryScaleBench.self,
            ConsoleBench.self,
            TokenRecordBench.self, TokenConsoleBench.self,
        ]
    )
}
