import Foundation
import TestSupport
import Testing

/// One engine per data directory: a second `fleetauth fleet-engine` on the same directory
/// refuses to start with a clear message, and the directory is free again once the first is
/// killed, even with `kill -9`.
@Suite("Data directory lock")
struct DataDirectoryLockTests {
    @Test func aSecondEngineOnTheSameDataDirectoryRefusesToStart() async throws {
        let folder = try TestEngine.makeFolder()
        let (first, _, _) = try await ChildEngine.start(folder: folder)
        let arguments = ["fleet-engine", "--data-dir", folder, "--project", TestKeys.project, "--port", "0", "--grpc-port", "0"]
            + (try ChildEngine.trustArguments(in: folder))
        let second = try await ChildProgram(try ChildProgram.fleetauth, arguments).exit(within: .seconds(60))
        #expect(second.exited && second.status != 0)
        #expect(second.output.contains("another local Fleet Engine is running on the data directory"), "\(second.output)")

        first.kill()
        _ = try await first.exit(within: .seconds(10))
        let (third, client, _) = try await ChildEngine.start(folder: folder)
        #expect(try await client.send(.GET, "\(Fixtures.provider)/vehicles/none", token: Tokens.server).status == 404)
        third.kill()
        _ = try await third.exit(within: .seconds(10))
    }
}
