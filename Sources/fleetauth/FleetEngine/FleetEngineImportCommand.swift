import ArgumentParser
import CommandSupport
import FleetAuthServerHTTP
import Foundation
import LocalFleetEngine
import Logging

/// `fleetauth fleet-engine import FILE`: saves a document `export` wrote into an engine that
/// has no resources yet, in one transaction.
struct FleetEngineImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Load a document written by 'fleet-engine export' (or the console) into an empty local Fleet Engine.",
        discussion: "Every resource takes --project as its provider. All of the document is saved, or none of it."
    )

    @Argument(help: ArgumentHelp("The document ('-' for standard input).", valueName: "file"))
    var file: String

    @OptionGroup var store: EngineStoreOptions

    func run() async throws {
        let data: Data
        do {
            data =
                file == "-"
                ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CommandFailure("cannot read \(file): \(error.localizedDescription)")
        }
        let snapshot: ProviderSnapshot
        do {
            snapshot = try FleetDocument.decode(data, provider: store.project)
        } catch {
            throw CommandFailure("\(file): \(error.description)")
        }
        let logger = Logger(label: "fleetauth.fleet-engine.import", factory: DeferredMetadataLogHandler.standardError)
        let (database, lock) = try await store.open(logger: logger)
        defer { lock.release() }
        do {
            let engine = SQLEngineStore(database: database)
            guard try await engine.load(provider: store.project).isEmpty else {
                throw CommandFailure(FleetDocument.notEmpty)
            }
            try await engine.save(snapshot.records, provider: store.project)
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
        FleetEngineCommand.announce(
            "imported \(snapshot.vehicles.count) vehicles, \(snapshot.trips.count) trips, \(snapshot.deliveryVehicles.count) delivery vehicles and \(snapshot.tasks.count) tasks into \(store.project)"
        )
    }
}
