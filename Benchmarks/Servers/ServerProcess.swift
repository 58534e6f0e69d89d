#if canImport(Glibc)
import CommandSupport
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A server a benchmark runs as a process of its own, so that its CPU time can be read apart
/// from the load generator's and the bench's (from `/proc/<pid>/stat`).
final class ServerProcess: Sendable {
    /// What the server is, for reports and errors.
    let name: String
    /// The child's process id.
    let pid: pid_t
    /// The port it listens on, read from the line it prints when ready.
    let port: Int
    private let output: Int32

    private init(name: String, pid: pid_t, port: Int, output: Int32) {
        self.name = name
        self.pid = pid
        self.port = port
        self.output = output
    }

    /// Starts `arguments` with `environment` added, and waits up to `timeout` for a line of
    /// its standard output from which `port` reads the listening port. Standard error is
    /// discarded.
    static func start(
        name: String, arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(60),
        port readPort: @escaping @Sendable (Substring) -> Int?
    ) async throws -> ServerProcess {
        var ends: [Int32] = [0, 0]
        guard ends.withUnsafeMutableBufferPointer({ pipe($0.baseAddress!) }) == 0 else { throw CommandFailure("cannot create a pipe for \(name)") }
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(arguments, standardOutput: ends[1], closingInChild: ends[0], environment: environment)
        } catch {
            close(ends[0])
            throw error
        }
        let reading = ends[0]
        let port: Int? = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: readLines(from: reading, deadline: .now + timeout, until: readPort))
            }
        }
        guard let port else {
            kill(pid, SIGKILL)
            reap(pid)
            close(reading)
            throw CommandFailure("\(name) did not say it was listening within \(timeout) (\(arguments.joined(separator: " ")))")
        }
        return ServerProcess(name: name, pid: pid, port: port, output: reading)
    }

    /// CPU time (user and system, every thread) the server has used so far, in seconds.
    func cpuSeconds() throws -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.lastIndex(of: ")")
        else { throw CommandFailure("cannot read /proc/\(pid)/stat of \(name) (has it exited?)") }
        // Fields after the name, from field 3 (state): utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: afterName)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw CommandFailure("cannot read the CPU times in /proc/\(pid)/stat of \(name)")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Asks the server to stop (SIGTERM), kills it if it is still there after five seconds,
    /// and reaps it.
    func stop() {
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(5)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                Self.reap(pid)
                break
            }
            usleep(20_000)
        }
        close(output)
    }

    /// Waits for the child `pid` to end, so that it leaves no zombie.
    private static func reap(_ pid: pid_t) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }

    /// Reads lines from `descriptor` until `match` finds a port in one, the stream ends, or
    /// `deadline` passes.
    private static func readLines(from descriptor: Int32, deadline: ContinuousClock.Instant, until match: (Substring) -> Int?) -> Int? {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) >= 0 || errno == EINTR else { return nil }
            guard poller.revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return nil }
            if count < 0 { if errno == EINTR { continue } else { return nil } }
            pending += buffer[..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if let port = match(Substring(line)) { return port }
            }
        }
        return nil
    }
}
