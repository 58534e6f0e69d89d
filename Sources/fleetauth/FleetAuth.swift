import ArgumentParser

/// `fleetauth`: mint, inspect and verify Fleet Engine tokens, and run the FleetAuth servers.
@main
struct FleetAuth: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleetauth",
        abstract: "Fleet Engine authorization tokens: mint, inspect, verify, serve.",
        subcommands: [
            KeygenCommand.self,
            MintCommand.self,
            InspectCommand.self,
            VerifyCommand.self,
            DemoCommand.self,
            ServeCommand.self,
            FleetEngineCommand.self,
            GoogleStandInCommand.self,
            TokenServerCommand.self,
            AccountsCommand.self,
            AssignCommand.self,
        ]
    )
}
