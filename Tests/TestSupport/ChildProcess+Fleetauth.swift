import CommandSupport
import Foundation

/// The built `fleetauth`, run by the tests as a child process.
extension ChildProcess {
    /// The path of the `fleetauth` binary built next to the test bundle.
    package static var fleetauth: String {
        get throws {
            let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            for candidate in [folder, folder.deletingLastPathComponent()] {
                let path = candidate.appendingPathComponent("fleetauth").path
                if FileManager.default.isExecutableFile(atPath: path) { return path }
            }
            throw TestFailure("no fleetauth binary next to \(folder.path); run 'swift build' first")
        }
    }

    /// Runs `fleetauth` with `arguments` to its end (at most `timeout`), standard error merged
    /// into its output.
    package static func runFleetauth(_ arguments: [String], input: String = "", timeout: Duration = .seconds(60))
        async throws -> Exit
    {
        try await run([try fleetauth] + arguments, input: input, timeout: timeout)
    }

    /// The ports of the `http://127.0.0.1:PORT` addresses in `text` (what a server announced),
    /// in order.
    package static func loopbackPorts(in text: String) -> [Int] {
        ports(of: "127.0.0.1", in: text)
    }

    /// The ports of the `HOST:PORT` addresses in `text` (`0.0.0.0:8080`), in order.
    package static func ports(of host: String, in text: String) -> [Int] {
        text.ranges(of: host + ":").compactMap { range in Int(text[range.upperBound...].prefix { $0.isNumber }) }
    }
}
