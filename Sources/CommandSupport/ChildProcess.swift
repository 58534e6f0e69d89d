import FleetAuthLocking
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program run as a child process, by the benchmarks (servers, load generators, `openssl
/// speed`) and by the tests (the built `fleetauth`, Python with Google's client).
///
/// - It starts with an empty signal mask and default signal handlers: Swift concurrency's
///   threads block most signals and a child inherits the mask, so a program that relies on
///   `SIGALRM` (`openssl speed`) would otherwise never stop.
/// - Its output is read on a thread of its own and every wait polls, so no blocking read or
///   `waitpid` holds one of Swift concurrency's few threads (a server in the same process, or
///   the tests running in parallel, may need them all), and every wait has a deadline: a
///   program that overstays it is killed.
package final class ChildProcess: Sendable {
    /// Where the program's standard error goes.
    package enum StandardError: Sendable {
        /// Into the same stream as standard output.
        case merged
        /// To `/dev/null`.
        case discarded
    }

    /// How the program ended.
    package struct Exit: Sendable {
        /// The program, as ``ChildProcess/name``.
        package let name: String
        /// The exit status, or the number of the signal that ended it.
        package let status: Int32
        /// Whether it exited (rather than being ended by a signal).
        package let exited: Bool
        /// Everything it printed.
        package let output: String
        /// The CPU time (user and system, every thread) it used, in seconds.
        package let cpuSeconds: Double

        /// Whether it exited with status 0.
        package var succeeded: Bool { exited && status == 0 }

        /// This exit, or a ``CommandFailure`` when the program did not exit with status 0.
        package func checked() throws -> Exit {
            guard succeeded else { throw CommandFailure("\(name) failed (\(exited ? "status" : "signal") \(status))") }
            return self
        }
    }

    /// What the program is, for messages: its name and first argument.
    package let name: String
    /// The child's process id.
    package let pid: pid_t
    private let state = Locked(State())

    private struct State {
        /// The bytes printed so far, decoded when read: a character may span two reads.
        var output: [UInt8] = []
        var outputEnded = false
        /// The raw `wait4` status and the CPU seconds, once the child is reaped.
        var ended: (status: Int32, cpuSeconds: Double)?
    }

    /// Starts `arguments[0]` (a path, or a name looked up on `PATH`) with the rest as its
    /// arguments and `environment` added to this process's, writes `input` to its standard
    /// input and closes it.
    package init(
        _ arguments: [String], environment: [String: String] = [:], input: String = "",
        standardError: StandardError = .merged
    ) throws {
        precondition(!arguments.isEmpty, "a child process needs a program")
        name = arguments.prefix(2).map { ($0 as NSString).lastPathComponent }.joined(separator: " ")
        let name = name
        let (pid, toChild, fromChild) = try Self.spawning.withLock { _ in
            let toChild = try Self.makePipe(for: name)
            let fromChild: (reading: Int32, writing: Int32)
            do { fromChild = try Self.makePipe(for: name) } catch {
                [toChild.reading, toChild.writing].forEach { _ = close($0) }
                throw error
            }
            do {
                let pid = try Self.spawn(
                    arguments, environment: environment, standardInput: toChild.reading,
                    standardOutput: fromChild.writing,
                    standardError: standardError)
                return (pid, toChild, fromChild)
            } catch {
                [toChild.reading, toChild.writing, fromChild.reading, fromChild.writing].forEach { _ = close($0) }
                throw error
            }
        }
        self.pid = pid
        close(toChild.reading)
        close(fromChild.writing)
        let state = state
        let reading = fromChild.reading
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(reading, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                state.withLock { state in
                    if count > 0 { state.output += buffer[..<count] } else { state.outputEnded = true }
                }
                if count <= 0 { break }
            }
            close(reading)
        }
        // Written on a thread of its own: a child that prints before it reads would otherwise
        // block this initializer once a pipe's worth of input is waiting.
        let writing = toChild.writing
        Thread.detachNewThread {
            // A child that exits before reading makes the write fail with EPIPE; the signal
            // that comes with it is blocked on this thread and dropped when it ends, instead of
            // ending this process.
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            let inputWriter = FileHandle(fileDescriptor: writing, closeOnDealloc: true)
            try? inputWriter.write(contentsOf: Data(input.utf8))
            try? inputWriter.close()
        }
    }

    /// Runs `arguments` to their end (at most `timeout`) and returns how they ended.
    package static func run(
        _ arguments: [String], environment: [String: String] = [:], input: String = "",
        standardError: StandardError = .merged,
        timeout: Duration = .seconds(60)
    ) async throws -> Exit {
        try await ChildProcess(arguments, environment: environment, input: input, standardError: standardError).exit(
            within: timeout)
    }

    /// What the program printed so far.
    package var output: String { String(decoding: state.withLock { $0.output }, as: UTF8.self) }

    /// Waits until the output contains `marker` and returns the output so far.
    ///
    /// - Throws: ``CommandFailure`` when the program's output ends first, or when `timeout`
    ///   passes (the program is killed then).
    package func output(containing marker: String, within timeout: Duration = .seconds(60)) async throws -> String {
        try await poll(within: timeout, waitingFor: marker.debugDescription) { _, output in
            output.contains(marker) ? output : nil
        }
    }

    /// Waits for the first line of output of which `match` makes something, and returns it.
    ///
    /// - Throws: ``CommandFailure`` when the program's output ends first, or when `timeout`
    ///   passes (the program is killed then).
    package func firstLine<Found>(matching match: (Substring) -> Found?, within timeout: Duration = .seconds(60))
        async throws -> Found
    {
        try await poll(within: timeout, waitingFor: "the line it was expected to print") { lines, _ in
            lines.lazy.compactMap(match).first
        }
    }

    /// Polls the output until `find` makes something of its complete lines and its whole text.
    private func poll<Found>(
        within timeout: Duration, waitingFor what: String, _ find: (_ lines: [Substring], _ text: String) -> Found?
    ) async throws -> Found {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (bytes, ended) = state.withLock { ($0.output, $0.outputEnded) }
            let text = String(decoding: bytes, as: UTF8.self)
            let complete = ended ? Substring(text) : text[..<(text.lastIndex(of: "\n") ?? text.startIndex)]
            if let found = find(complete.split(separator: "\n"), text) { return found }
            if ended { throw CommandFailure("\(name) ended before printing \(what): \(text)") }
            if ContinuousClock.now >= deadline {
                kill()
                throw CommandFailure("\(name) did not print \(what) within \(timeout): \(text)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits until the program has ended and its output is read.
    ///
    /// - Throws: ``CommandFailure`` when `timeout` passes first (the program is killed then).
    package func exit(within timeout: Duration = .seconds(60)) async throws -> Exit {
        let deadline = ContinuousClock.now + timeout
        while true {
            reap(blocking: false)
            let (bytes, outputEnded, ended) = state.withLock { ($0.output, $0.outputEnded, $0.ended) }
            let output = String(decoding: bytes, as: UTF8.self)
            if let ended, outputEnded {
                // The status as waitpid(2) encodes it: the low 7 bits are the signal, 0 for an exit.
                let signal = ended.status & 0x7F
                return Exit(
                    name: name, status: signal == 0 ? (ended.status >> 8) & 0xFF : signal, exited: signal == 0,
                    output: output,
                    cpuSeconds: ended.cpuSeconds)
            }
            if ContinuousClock.now >= deadline {
                kill()
                throw CommandFailure("\(name) did not end within \(timeout): \(output)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The CPU time (user and system, every thread) the running program has used so far, in
    /// seconds, from `/proc/<pid>/stat` (Linux).
    package func cpuSeconds() throws -> Double {
        // Once reaped, the pid may be another process's.
        guard state.withLock({ $0.ended == nil }) else {
            throw CommandFailure("\(name) has ended; its CPU time is in its exit")
        }
        guard let stat = ProcessStat.read("/proc/\(pid)/stat") else {
            throw CommandFailure("cannot read the CPU times in /proc/\(pid)/stat of \(name) (has it exited?)")
        }
        return stat.cpuSeconds
    }

    /// Asks the program to stop (SIGTERM).
    package func terminate() {
        signal(SIGTERM)
    }

    /// Asks the program to reload what it reads from files (SIGHUP).
    package func hangUp() {
        signal(SIGHUP)
    }

    /// Ends the program at once (SIGKILL): no chance to flush or close anything.
    package func kill() {
        signal(SIGKILL)
    }

    /// Asks the program to stop (SIGTERM), kills it if it has not ended within `timeout`, and
    /// reaps it. Blocks the calling thread meanwhile: for `defer` blocks, which cannot await.
    package func stop(within timeout: Duration = .seconds(5)) {
        terminate()
        let deadline = ContinuousClock.now + timeout
        while !reap(blocking: false), ContinuousClock.now < deadline { usleep(10_000) }
        kill()
        reap(blocking: true)
    }

    deinit {
        kill()
        reap(blocking: true)
    }

    /// Sends `signal` unless the child is reaped (its pid may then be another process's).
    private func signal(_ signal: Int32) {
        state.withLock { state in
            if state.ended == nil { _ = Foundation.kill(pid, signal) }
        }
    }

    /// Reaps the child if it has ended (or, `blocking`, once it ends), keeping its status and
    /// CPU time; returns whether it is reaped.
    @discardableResult
    private func reap(blocking: Bool) -> Bool {
        state.withLock { state in
            guard state.ended == nil else { return true }
            var status: Int32 = 0
            var usage = rusage()
            var reaped = wait4(pid, &status, blocking ? 0 : WNOHANG, &usage)
            while reaped == -1, errno == EINTR { reaped = wait4(pid, &status, blocking ? 0 : WNOHANG, &usage) }
            guard reaped == pid else { return false }
            let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
            state.ended = (status, user + system)
            return true
        }
    }

    /// A pipe whose ends no child inherits (close-on-exec): a child started at the same time
    /// would otherwise hold this one's output open after it ends. Call with ``spawning`` held,
    /// so that no other child is started between `pipe` and `fcntl`.
    private static func makePipe(for name: String) throws -> (reading: Int32, writing: Int32) {
        var ends: [Int32] = [0, 0]
        guard ends.withUnsafeMutableBufferPointer({ pipe($0.baseAddress!) }) == 0 else {
            throw CommandFailure("cannot create a pipe for \(name)")
        }
        guard ends.allSatisfy({ fcntl($0, F_SETFD, FD_CLOEXEC) == 0 }) else {
            ends.forEach { _ = close($0) }
            throw CommandFailure("cannot create a pipe for \(name)")
        }
        return (ends[0], ends[1])
    }

    /// Held while a child's pipes are made and it is started (see ``makePipe(for:)``).
    private static let spawning = Locked(())

    #if os(Linux)
        /// glibc's `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34 and later), which Swift's
        /// Glibc module does not declare; `nil` on an older glibc.
        private static let closeFrom:
            (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
                guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
                return unsafeBitCast(
                    symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self
                )
            }()
    #endif

    /// Starts `arguments` with an empty signal mask and default signal handlers and the given
    /// descriptors as its standard streams (duplicated: the originals close on exec).
    private static func spawn(
        _ arguments: [String], environment: [String: String], standardInput: Int32, standardOutput: Int32,
        standardError: StandardError
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, standardInput, STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, standardOutput, STDOUT_FILENO)
        switch standardError {
        case .merged: posix_spawn_file_actions_adddup2(&actions, standardOutput, STDERR_FILENO)
        case .discarded: posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        }
        // Nothing else of this process reaches the child: a descriptor another part of the
        // process opened without close-on-exec (a Foundation `Pipe`) would otherwise stay open
        // in it, and whoever waits for that pipe's end would wait for this child.
        #if os(Linux)
            _ = closeFrom.map { $0(&actions, STDERR_FILENO + 1) }
        #endif

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        #if canImport(Darwin)
            posix_spawnattr_setflags(
                &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_CLOEXEC_DEFAULT))
        #else
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        #endif

        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        var cEnvironment = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { cEnvironment.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, &cArguments, &cEnvironment)
        guard spawned == 0 else { throw CommandFailure("cannot run \(arguments[0]) (is it installed?)") }
        return pid
    }
}
