import ArgumentParser
import Foundation

/// `fleetauth fleet-engine`: the local Fleet Engine. Runs it (`run`, the default), or moves its
/// whole state in and out as one JSON document (`export`, `import`).
struct FleetEngineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet-engine",
        abstract: "Run the local Fleet Engine (the default), or export or import its state.",
        subcommands: [FleetEngineRunCommand.self, FleetEngineExportCommand.self, FleetEngineImportCommand.self],
        defaultSubcommand: FleetEngineRunCommand.self
    )

    /// Prints a line on standard output at once, even when it is a pipe.
    static func announce(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
