import ArgumentParser
import CommandSupport
import FleetAuthServerHTTP
import Foundation
import LocalFleetEngine
import Logging

/// `fleetauth fleet-engine export`: the whole state of a stopped engine as one JSON document
/// (the console's `GET /console/api/export` gives the same of a running one).
struct FleetEngineExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the local Fleet Engine's vehicles, trips, delivery vehicles and tasks as one JSON document.",
        discussion: "The engine must be stopped; a running one exports through its console: GET /console/api/export."
    )

    @OptionGroup var store: EngineStoreOptions

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Where to write the document (default: standard output).", valueName: "file"))
    var output: String?

    func run() async throws {
        let logger = Logger(label: "fleetauth.fleet-engine.export", factory: DeferredMetadataLogHandler.standardError)
        let (database, lock) = try await store.open(logger: logger)
        defer { lock.release() }
        let document: Data
        do {
            let snapshot = try await SQLEngineStore(database: database).load(provider: store.project)
            document = try FleetDocument.encode(snapshot, provider: store.project)
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
        if let output {
            do {
                try document.write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw CommandFailure("cannot write \(output): \(error.localizedDescription)")
            }
        } else {
            FileHandle.standardOutput.write(document)
        }
    }
}
