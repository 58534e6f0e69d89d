import CommandSupport
import Foundation
import Testing

@Suite("ProcessStat: a line of /proc/PID/stat")
struct ProcessStatTests {
    @Test("the name runs to the last parenthesis, and the CPU time is user plus system")
    func nameWithSpacesAndParentheses() throws {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let line = "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 4 0 123 0 0"
        let stat = try #require(ProcessStat(parsing: line))
        #expect(stat.name == "a (b) c")
        #expect(stat.cpuSeconds == 300 / ticks)
    }

    @Test("a line cut short or without a name is refused", arguments: ["4242 (sh) S 1 4242", "4242 sh S 1 2 3"])
    func malformed(line: String) {
        #expect(ProcessStat(parsing: line) == nil)
    }

    @Test(
        "this process's own line is read", .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/stat")))
    func ownProcess() throws {
        let stat = try #require(ProcessStat.read("/proc/\(getpid())/stat"))
        #expect(!stat.name.isEmpty)
        #expect(stat.cpuSeconds > 0, "this process has run the tests so far")
        #expect(ProcessStat.read("/proc/no-such-process/stat") == nil)
    }
}
