import CommandSupport
import Foundation
import TestSupport
import Testing

/// The commands `fleetauth serve`'s banner tells a person to paste, pasted into bash as they
/// are, from the folder it was started in, whichever way `fleetauth` was started: from the
/// `PATH`, by a relative path, or by its absolute path (as `swift run` starts it).
@Suite("The banner's commands, pasted")
struct BannerCommandsTests {
    /// How a person starts `fleetauth`.
    enum Start: String, CaseIterable, CustomTestStringConvertible {
        case fromThePath = "from the PATH"
        case byARelativePath = "by a relative path"
        case byItsAbsolutePath = "by its absolute path, as swift run starts it"

        var testDescription: String { rawValue }
    }

    @Test("every pasted command works: the account, its vehicle, its token, its location", arguments: Start.allCases)
    func pastedCommandsWork(start: Start) async throws {
        let folder = try TestEngine.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let binary = URL(fileURLWithPath: try ChildProcess.fleetauth)
        let bin = folder + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/fleetauth", withDestinationPath: binary.path)
        let command =
            switch start {
            case .fromThePath: "export PATH=\(bin):$PATH; exec fleetauth"
            case .byARelativePath: "exec bin/fleetauth"
            case .byItsAbsolutePath: "exec \(bin)/fleetauth"
            }
        // The default data directory, `fleetauth-data` in the folder it starts in; `exec`, so that
        // stopping the child stops the server.
        let serve = try ChildProcess(
            [
                "bash", "-c",
                "cd \(folder) && \(command) serve --token-server-port 0 --fleet-engine-port 0 --grpc-port 0",
            ], standardError: .discarded)
        defer { serve.kill() }
        let banner = try await serve.output(containing: "3. Send")
        let pasted = banner.split(separator: "\n").filter { $0.hasPrefix("  curl ") || $0.hasPrefix("  TOKEN=") }
        try #require(pasted.count == 5, "\(banner)")
        // Each command's output, then a line with its number and exit status.
        let script = (["cd \(folder)"] + pasted.enumerated().map { "\($1)\necho; echo \"step \($0 + 1): $?\"" })
            .joined(separator: "\n")
        let run = try await ChildProcess.run(["bash", "-c", script])
        #expect(run.succeeded, "\(run.output)")
        for step in 1...5 { #expect(run.output.contains("step \(step): 0"), "\(run.output)") }
        #expect(!run.output.contains("No such file"), "\(run.output)")
        #expect(run.output.contains(#""username""#) && run.output.contains("alice"), "the account: \(run.output)")
        #expect(run.output.contains("/vehicles/vehicle-1"), "the vehicle: \(run.output)")
        #expect(run.output.contains("52.52"), "the location, as the driver sent it: \(run.output)")
        #expect(!run.output.contains(#""error""#), "\(run.output)")
    }
}
