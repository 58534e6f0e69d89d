#if canImport(Glibc)
import CommandSupport
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Runs a program and collects its standard output.
///
/// Swift concurrency's worker threads block most signals, and a child inherits the blocked
/// mask, so a program that relies on `SIGALRM` (like `openssl speed`) would never stop if
/// started with `Process` from async code. This spawns with an empty signal mask and default
/// signal handlers instead.
enum ChildProcess {
    /// What a finished program printed and the CPU time (user and system) it used.
    struct Finished: Sendable {
        let output: String
        let cpuSeconds: Double
    }

    /// Runs `arguments` (looked up on `PATH`), waits, and returns standard output; throws if it
    /// cannot start or exits non-zero. Standard error is discarded.
    static func output(of arguments: [String]) throws -> String {
        try run(arguments).output
    }

    /// ``run(_:)`` on a thread of its own, so that a long run blocks none of Swift
    /// concurrency's few worker threads (a server in this process may need them all).
    static func runOnOwnThread(_ arguments: [String]) async throws -> Finished {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try run(arguments) })
            }
        }
    }

    /// Runs `arguments` like ``output(of:)``, also measuring the program's CPU time.
    static func run(_ arguments: [String]) throws -> Finished {
        var ends: [Int32] = [0, 0]
        guard ends.withUnsafeMutableBufferPointer({ pipe($0.baseAddress!) }) == 0 else {
            throw CommandFailure("cannot create a pipe for \(arguments[0])")
        }
        let pid: pid_t
        do {
            pid = try spawn(arguments, standardOutput: ends[1], closingInChild: ends[0])
        } catch {
            close(ends[0])
            throw error
        }
        let output = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true).readDataToEndOfFile()
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        guard status == 0 else { throw CommandFailure("\(arguments[0]) failed (status \(status))") }
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        return Finished(output: String(decoding: output, as: UTF8.self), cpuSeconds: cpu)
    }

    /// Starts `arguments` (looked up on `PATH`) with an empty signal mask and default signal
    /// handlers, its standard output on `standardOutput` (closed here once the child has it),
    /// standard error on `/dev/null`, and `environment` added to this process's; returns its pid.
    /// `closingInChild` is a descriptor the child must not inherit (the pipe's other end).
    static func spawn(
        _ arguments: [String], standardOutput: Int32, closingInChild: Int32, environment: [String: String] = [:]
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, standardOutput, STDOUT_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, closingInChild)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        var cEnvironment = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { cEnvironment.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, &cArguments, &cEnvironment)
        close(standardOutput)
        guard spawned == 0 else { throw CommandFailure("cannot run \(arguments[0]) (is it installed?)") }
        return pid
    }
}
