import ArgumentParser
import Foundation

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

    /// Parses and runs the command line. A usage error that a subcommand finds while it runs
    /// (an option that only matters with another) is answered as one found while parsing: the
    /// message and that subcommand's usage, not the whole tool's.
    static func main() async {
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var syncCommand = command
                try syncCommand.run()
            }
        } catch let error as ValidationError {
            let subcommand = type(of: command)
            FileHandle.standardError.write(Data("""
                Error: \(error.message)
                Usage: \(usageString(for: subcommand))
                  See '\(commandPath(of: subcommand)) --help' for more information.

                """.utf8))
            exit(withError: ExitCode.validationFailure)
        } catch {
            exit(withError: error)
        }
    }

    /// `fleetauth accounts create`: the names from the root to `subcommand`.
    private static func commandPath(of subcommand: any ParsableCommand.Type) -> String {
        func path(to target: any ParsableCommand.Type, from command: any ParsableCommand.Type) -> [String]? {
            let name = command.configuration.commandName ?? String(describing: command).lowercased()
            if command == target { return [name] }
            for child in command.configuration.subcommands {
                if let rest = path(to: target, from: child) { return [name] + rest }
            }
            return nil
        }
        return (path(to: subcommand, from: Self.self) ?? ["fleetauth"]).joined(separator: " ")
    }
}
