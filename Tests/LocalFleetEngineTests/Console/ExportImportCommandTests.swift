import CommandSupport
import Foundation
import TestSupport
import Testing

/// `fleetauth fleet-engine export` and `import` on a stopped engine's data directory, and the
/// console's address in the engine's start-up lines.
@Suite("fleet-engine export and import")
struct ExportImportCommandTests {
    private static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test(
        "A stopped engine's state, exported, imports into an empty one and exports the same; a full one refuses; a running one is not read behind its back"
    )
    func exportImportExport() async throws {
        let first = try Self.folder(), second = try Self.folder()
        defer { for folder in [first, second] { try? FileManager.default.removeItem(atPath: folder) } }
        let (engine, client, _) = try await ChildEngine.start(folder: first)
        defer { engine.kill() }
        #expect(
            try await engine.output(containing: "console: ").contains(
                "console: http://127.0.0.1:\(client.port)/console/"))
        try await Fixtures.create(on: client)
        let running = try await ChildProcess.runFleetauth([
            "fleet-engine", "export", "--project", TestKeys.project, "--data-dir", first,
        ])
        #expect(
            running.status != 0 && running.output.contains("is in use by another local Fleet Engine"),
            "\(running.output)")
        engine.kill()
        _ = try await engine.exit()

        let document = "\(first)/export.json"
        let exported = try await ChildProcess.runFleetauth([
            "fleet-engine", "export", "--project", TestKeys.project, "--data-dir", first, "-o", document,
        ])
        #expect(exported.status == 0, "\(exported.output)")
        let text = try String(contentsOfFile: document, encoding: .utf8)
        #expect(text.contains(#""trips":[{"name":"providers/\#(TestKeys.project)/trips/t1""#))

        let imported = try await ChildProcess.runFleetauth([
            "fleet-engine", "import", document, "--project", TestKeys.project, "--data-dir", second,
        ])
        #expect(
            imported.output.contains("imported 4 vehicles, 2 trips, 0 delivery vehicles and 0 tasks"),
            "\(imported.output)")
        let again = try await ChildProcess.runFleetauth([
            "fleet-engine", "export", "--project", TestKeys.project, "--data-dir", second,
        ])
        #expect(again.status == 0 && again.output == text)
        let twice = try await ChildProcess.runFleetauth([
            "fleet-engine", "import", document, "--project", TestKeys.project, "--data-dir", second,
        ])
        #expect(twice.status != 0 && twice.output.contains("import only into an empty engine"), "\(twice.output)")
        let broken = "\(first)/broken.json"
        try Data(
            #"{"format":"fleetauth-fleet-engine","version":1,"trips":[{"name":"providers/p/trips/t","vehicleId":"v"}]}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: broken))
        let refused = try await ChildProcess.runFleetauth([
            "fleet-engine", "import", broken, "--project", TestKeys.project, "--data-dir", try Self.folder(),
        ])
        #expect(
            refused.status != 0
                && refused.output.contains("trip 't' is assigned to vehicle 'v', which the document does not have"),
            "\(refused.output)")
    }
}
