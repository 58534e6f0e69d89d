import CommandSupport

/// A server a benchmark runs as a process of its own, so that its CPU time can be read apart
/// from the load generator's and the bench's.
struct ServerProcess: Sendable {
    /// What the server is, for reports and errors.
    let name: String
    /// The running server.
    let process: ChildProcess
    /// The port it listens on, read from the line it prints when ready.
    let port: Int

    /// Starts `arguments` with `environment` added, and waits up to `timeout` for a line of
    /// its standard output from which `port` reads the listening port. Standard error is
    /// discarded.
    static func start(
        name: String, arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(60),
        port readPort: @escaping @Sendable (Substring) -> Int?
    ) async throws -> ServerProcess {
        let process = try ChildProcess(arguments, environment: environment, standardError: .discarded)
        do {
            return ServerProcess(
                name: name, process: process, port: try await process.firstLine(matching: readPort, within: timeout))
        } catch {
            process.stop()
            throw CommandFailure("\(name) did not say it was listening (\(arguments.joined(separator: " "))): \(error)")
        }
    }

    /// The port in a competitor's `listening PORT`, the line the benchmarks' own servers print.
    @Sendable static func listeningPort(_ line: Substring) -> Int? {
        line.hasPrefix("listening ") ? Int(line.dropFirst("listening ".count)) : nil
    }

    /// CPU time (user and system, every thread) the server has used so far, in seconds.
    func cpuSeconds() throws -> Double {
        try process.cpuSeconds()
    }

    /// Asks the server to stop (SIGTERM), kills it if it is still there after five seconds,
    /// and reaps it.
    func stop() {
        process.stop()
    }
}
