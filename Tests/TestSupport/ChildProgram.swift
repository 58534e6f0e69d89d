import Foundation
import Locking

/// A program a test runs as a child process, such as the built `fleetauth`.
///
/// Its output is read on a dispatch queue of its own and every wait polls, so no blocking
/// read or `waitUntilExit()` ever holds one of Swift concurrency's few threads (which would
/// stall the tests running in parallel), and every wait has a deadline that holds: a program
/// that overstays it is killed.
public final class ChildProgram: Sendable {
    /// How the program ended.
    public struct Exit: Sendable {
        /// The exit status, or the signal that ended it.
        public let status: Int32
        /// Whether it exited (rather than being ended by a signal).
        public let exited: Bool
        /// Everything it printed.
        public let output: String
    }

    private let process: Process
    private let collected = CollectedOutput()
    private let name: String

    /// The `fleetauth` binary built next to the test bundle.
    public static var fleetauth: URL {
        get throws {
            let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            for candidate in [folder, folder.deletingLastPathComponent()] {
                let path = candidate.appendingPathComponent("fleetauth")
                if FileManager.default.isExecutableFile(atPath: path.path) { return path }
            }
            throw TestFailure("no fleetauth binary next to \(folder.path); run 'swift build' first")
        }
    }

    /// Starts `executable` with `arguments`, writing `input` to its standard input and closing
    /// it; standard error joins standard output unless `keepingErrors` is `false`.
    public init(_ executable: URL, _ arguments: [String], input: String = "", keepingErrors: Bool = true) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let standardInput = Pipe(), standardOutput = Pipe()
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = keepingErrors ? standardOutput : FileHandle.nullDevice
        try process.run()
        self.process = process
        name = ([executable.lastPathComponent] + arguments.prefix(1)).joined(separator: " ")
        standardInput.fileHandleForWriting.write(Data(input.utf8))
        try? standardInput.fileHandleForWriting.close()
        let reader = standardOutput.fileHandleForReading
        let collected = collected
        DispatchQueue(label: "child-program-output").async {
            while true {
                let data = reader.availableData
                collected.state.withLock { state in
                    if data.isEmpty { state.ended = true } else { state.text += String(decoding: data, as: UTF8.self) }
                }
                if data.isEmpty { return }
            }
        }
    }

    /// The ports of the `http://127.0.0.1:PORT` addresses in `text` (what a server announced),
    /// in order.
    public static func loopbackPorts(in text: String) -> [Int] {
        text.ranges(of: /127\.0\.0\.1:(\d+)/).compactMap { range in
            Int(text[range].dropFirst("127.0.0.1:".count))
        }
    }

    /// Runs `fleetauth` with `arguments` to its end (at most `timeout`).
    public static func runFleetauth(_ arguments: [String], input: String = "", timeout: Duration = .seconds(60)) async throws -> Exit {
        try await ChildProgram(try fleetauth, arguments, input: input).exit(within: timeout)
    }

    /// What the program printed so far.
    public var output: String { collected.state.withLock { $0.text } }

    /// Waits until the output contains `marker` and returns the output so far.
    ///
    /// - Throws: ``TestFailure`` when the program ends first, or when `timeout` passes (the
    ///   program is killed then).
    public func output(containing marker: String, within timeout: Duration = .seconds(60)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (text, ended) = collected.state.withLock { ($0.text, $0.ended) }
            if text.contains(marker) { return text }
            if ended { throw TestFailure("\(name) ended before printing \(marker.debugDescription): \(text)") }
            if ContinuousClock.now >= deadline {
                kill()
                throw TestFailure("\(name) did not print \(marker.debugDescription) within \(timeout): \(text)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits until the program has ended and its output is read.
    ///
    /// - Throws: ``TestFailure`` when `timeout` passes first (the program is killed then).
    public func exit(within timeout: Duration = .seconds(60)) async throws -> Exit {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning || !collected.state.withLock({ $0.ended }) {
            if ContinuousClock.now >= deadline {
                kill()
                throw TestFailure("\(name) did not end within \(timeout): \(output)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return Exit(status: process.terminationStatus, exited: process.terminationReason == .exit, output: output)
    }

    /// Asks the program to stop (SIGTERM).
    public func terminate() {
        if process.isRunning { process.terminate() }
    }

    /// Ends the program at once (SIGKILL): no chance to flush or close anything.
    public func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    deinit {
        kill()
    }
}

/// What a child program printed, and whether its output has ended; filled on the reading queue.
private final class CollectedOutput: Sendable {
    let state = Locked((text: "", ended: false))
}
