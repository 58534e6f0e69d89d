import CommandSupport
import Foundation
import Testing

@Suite("Child processes")
struct ChildProcessTests {
    @Test("the status, the output and the input of a program that exits")
    func exitStatus() async throws {
        let exit = try await ChildProcess.run(
            ["sh", "-c", "read line; echo \"got $line\"; echo oops >&2; exit 3"], input: "hello\n")
        #expect(exit.exited && exit.status == 3 && !exit.succeeded)
        #expect(exit.output == "got hello\noops\n")
        #expect(throws: CommandFailure.self) { try exit.checked() }
    }

    /// The output is read in chunks; a character split between two of them is still one.
    @Test("a long output of many-byte characters reads back whole")
    func multibyteOutput() async throws {
        // One write of 60,000 bytes: the reads of 16 KiB cut a three-byte character.
        let exit = try await ChildProcess.run(["python3", "-c", "import sys; sys.stdout.write('€' * 20000)"])
        #expect(exit.output == String(repeating: "€", count: 20000))
    }

    @Test("input a program never reads, because it has ended, fails quietly")
    func inputToAnEndedProgram() async throws {
        let exit = try await ChildProcess.run(["true"], input: String(repeating: "x", count: 1 << 20))
        #expect(exit.succeeded)
    }

    @Test("standard error can be left out")
    func discardedErrors() async throws {
        let exit = try await ChildProcess.run(["sh", "-c", "echo out; echo err >&2"], standardError: .discarded)
        #expect(exit.succeeded && exit.output == "out\n")
    }

    /// Swift concurrency's threads block most signals, and a child inherits the mask: `openssl
    /// speed` stops on SIGALRM, which it would then never see.
    @Test("a child started from a task receives signals with their default handling")
    func signalsReachTheChild() async throws {
        let exit = try await ChildProcess.run(["sh", "-c", "kill -ALRM $$; sleep 60"], timeout: .seconds(30))
        #expect(!exit.exited && exit.status == SIGALRM)
    }

    @Test("a line is awaited as it comes, and terminate ends the program")
    func firstLineThenTerminate() async throws {
        let child = try ChildProcess(["sh", "-c", "echo starting; echo 'port 4321'; exec sleep 30"])
        let port = try await child.firstLine { $0.hasPrefix("port ") ? Int($0.dropFirst(5)) : nil }
        #expect(port == 4321)
        // Once the shell has become `sleep`: a signal sent while it is still on its way there
        // can be lost on a busy machine, and the program then sleeps its 30 s out.
        let deadline = ContinuousClock.now + .seconds(30)
        while (try? String(contentsOfFile: "/proc/\(child.pid)/comm", encoding: .utf8))?.hasPrefix("sleep") != true,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(10))
        }
        child.terminate()
        let exit = try await child.exit(within: .seconds(30))
        #expect(!exit.exited && exit.status == SIGTERM)
    }

    @Test("a wait that outlasts its deadline kills the program and says what it printed")
    func deadline() async throws {
        let child = try ChildProcess(["sh", "-c", "echo waiting; exec sleep 60"])
        // Once it has printed (however long a loaded machine takes to start it), a short deadline.
        _ = try await child.output(containing: "waiting", within: .seconds(30))
        let failure = await #expect(throws: CommandFailure.self) { try await child.exit(within: .milliseconds(300)) }
        #expect(
            failure?.description.contains("did not end within") == true
                && failure?.description.contains("waiting") == true)
        let killed = try await child.exit(within: .seconds(30))
        #expect(!killed.exited && killed.status == SIGKILL)
    }

    @Test("output that ends before the awaited text is an error, not a hang")
    func endsFirst() async throws {
        let child = try ChildProcess(["sh", "-c", "echo bye"])
        await #expect(throws: CommandFailure.self) { try await child.output(containing: "never", within: .seconds(30)) }
    }

    @Test("a program that is not there is a clear error")
    func missingProgram() {
        #expect(throws: CommandFailure.self) { try ChildProcess(["no-such-program-fleetauth"]) }
    }

    @Test(
        "the CPU time of a running program, then stop: asked, then reaped, the CPU time in its exit",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/stat"), "reads /proc"))
    func stopAndCPU() async throws {
        let child = try ChildProcess(["sh", "-c", "while :; do :; done"])
        let deadline = ContinuousClock.now + .seconds(30)
        while try child.cpuSeconds() == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try child.cpuSeconds() > 0)
        child.stop()
        let exit = try await child.exit(within: .seconds(30))
        #expect(exit.status == SIGTERM && exit.cpuSeconds > 0)
        #expect(throws: CommandFailure.self, "a reaped child's pid may be another process's") { try child.cpuSeconds() }
    }

    /// A Foundation `Pipe` has no close-on-exec on Linux: a child that inherited its write end
    /// would keep whoever reads it waiting until that child ends.
    @Test("a descriptor opened elsewhere in the process does not reach the child")
    func noInheritedDescriptors() async throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let child = try ChildProcess(["sleep", "30"])
        defer { child.kill() }
        close(ends[1])
        var poller = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        #expect(
            poll(&poller, 1, 30_000) == 1 && poller.revents & Int16(POLLHUP) != 0,
            "the pipe's end is seen while the child lives")
    }
}
