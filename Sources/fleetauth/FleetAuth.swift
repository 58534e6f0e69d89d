import ArgumentParser
import Foundation

/// `fleetauth`: mint, inspect and verify Fleet Engine tokens, and run the FleetAuth servers.
@main
struct FleetAuth: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleetauth",
        abstract: "Fleet Engine authorization tokens: mint, inspect, verify, serve.",
        version: BuildVersion.description,
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
            AuditCommand.self,
            KeysCommand.self,
        ]
    )

    /// Parses and runs the command line, with the server commands' options also taken from
    /// the environment (``EnvironmentSettings``). A usage error that a subcommand finds while it
    /// runs (an option that only matters with another) is answered as one found while parsing:
    /// the message and that subcommand's usage, not the whole tool's.
    static func main() async {
        let environment: EnvironmentSettings
        let command: any ParsableCommand
        do {
            environment = try EnvironmentSettings(
                commandLine: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
                root: Self.self)
        } catch {
            exit(withError: error)
        }
        if environment.asksForHelp, let path = environment.commandPath, let section = environment.helpSection {
            // A server command's help ends with the variables that set its options.
            print(helpMessage(for: subcommand(at: path)) + "\n\n" + section)
            Foundation.exit(0)
        }
        do {
            command = try parseAsRoot(environment.arguments)
        } catch {
            finish(with: error, environment: environment)
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
            FileHandle.standardError.write(
                Data(
                    """
                    Error: \(environment.naming(error.message))
                    Usage: \(usageString(for: subcommand))
                      See '\(commandPath(of: subcommand)) --help' for more information.

                    """.utf8))
            exit(withError: ExitCode.validationFailure)
        } catch {
            exit(withError: error)
        }
    }

    /// Says what ArgumentParser says of a parsing error, naming the variables that set options
    /// instead of the options, then exits with its code.
    private static func finish(with error: any Error, environment: EnvironmentSettings) -> Never {
        let code = exitCode(for: error)
        let message = environment.naming(fullMessage(for: error))
        let output = code == .success ? FileHandle.standardOutput : FileHandle.standardError
        output.write(Data((message + "\n").utf8))
        Foundation.exit(code.rawValue)
    }

    /// The command at `path`, a list of command names from the root.
    private static func subcommand(at path: [String]) -> any ParsableCommand.Type {
        path.reduce(Self.self as any ParsableCommand.Type) { command, name in
            command.configuration.subcommands.first { ($0.configuration.commandName ?? "") == name } ?? command
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
