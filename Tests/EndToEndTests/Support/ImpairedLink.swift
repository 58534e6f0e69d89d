import CommandSupport
import FleetAuthLocking
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A network namespace of the test's own, reached over two links (`Tests/Network/impaired_link.py`,
/// run as a child process): the app link, whose packets the test delays, drops or cuts, and the
/// control link, which nothing hits, for what the test watches through.
final class ImpairedLink: Sendable {
    /// What happens to the app link's packets, each way.
    enum Impairment: Sendable, CustomStringConvertible {
        /// Every packet held this long, each way.
        case delay(milliseconds: Int)
        /// Every packet dropped with this chance, each way.
        case loss(percent: Int)
        /// Every packet dropped, and nothing closed.
        case partition
        /// Nothing held or dropped.
        case healed

        var description: String {
            switch self {
            case .delay(let milliseconds): "delay \(milliseconds)"
            case .loss(let percent): "loss \(percent)"
            case .partition: "partition"
            case .healed: "heal"
            }
        }
    }

    /// The namespace's address over the app link.
    let appAddress: String
    /// This side's address over the app link: where processes in the namespace reach this one
    /// across the impairments.
    let outsideAddress: String
    /// The namespace's address over the control link.
    let controlAddress: String
    private let namespace: String
    private let process: ChildProcess
    private let controlPort: Int

    private init(tag: String, subnet: Int, process: ChildProcess, controlPort: Int) {
        namespace = "fa-\(tag)"
        appAddress = "198.18.\(subnet).2"
        outsideAddress = "198.18.\(subnet).1"
        controlAddress = "198.19.\(subnet).2"
        self.process = process
        self.controlPort = controlPort
    }

    /// Whether this machine lets the test make the links: root, network namespaces and TUN
    /// devices.
    static func isAvailable() async -> Bool {
        guard geteuid() == 0, FileManager.default.isReadableFile(atPath: "/dev/net/tun") else { return false }
        let probe = "fa-probe-\(getpid())"
        guard (try? await ChildProcess.run(["ip", "netns", "add", probe], timeout: .seconds(10)))?.succeeded == true
        else { return false }
        _ = try? await ChildProcess.run(["ip", "netns", "del", probe], timeout: .seconds(10))
        return true
    }

    /// Runs a test that needs the links only where the machine allows them, and always in CI,
    /// where a machine that does not should fail it rather than skip it.
    static var required: ConditionTrait {
        .enabled("needs root, network namespaces (ip netns) and TUN devices (/dev/net/tun)") {
            if ProcessInfo.processInfo.environment["CI"] == "true" { return true }
            return await isAvailable()
        }
    }

    /// How many links this process has opened.
    private static let opened = Locked(0)

    /// Makes the namespace and its links, both healthy; their names and addresses carry this
    /// process's id and a count of its links, so that tests running at once do not meet.
    static func open() async throws -> ImpairedLink {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Network/impaired_link.py").path
        let count = opened.withLock { count in
            defer { count += 1 }
            return count
        }
        let tag = "\(getpid() % 100_000)x\(count % 100)"
        let subnet = (Int(getpid()) + count) % 256
        let process = try ChildProcess(["python3", script, tag, String(subnet)])
        let port = try await process.firstLine(matching: { line -> Int? in
            line.hasPrefix("ready on ") ? Int(line.dropFirst("ready on ".count)) : nil
        })
        return ImpairedLink(tag: tag, subnet: subnet, process: process, controlPort: port)
    }

    /// Sets what happens to the app link's packets from now on.
    func impair(_ impairment: Impairment) async throws {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(controlPort)/")!)
        request.httpMethod = "POST"
        request.httpBody = Data(impairment.description.utf8)
        let (body, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw TestFailure("the link refused '\(impairment)': \(String(decoding: body, as: UTF8.self))")
        }
    }

    /// Starts `arguments` inside the namespace.
    func start(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(["ip", "netns", "exec", namespace] + arguments)
    }

    /// Removes the namespace and both links.
    func close() {
        process.stop()
    }
}
