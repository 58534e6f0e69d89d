import FleetAuthServerStorage
import Foundation
import Testing

@Suite("Data directory lock")
struct DataDirectoryLockTests {
    func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)").path
    }

    @Test("a second claim is refused, naming the process that holds the directory; after a release it is granted")
    func secondClaimIsRefused() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try DataDirectoryLock.acquire(
            directory: directory, name: "fleet-engine", server: "local Fleet Engine")
        let refusal = #expect(throws: DataDirectoryLockError.self) {
            try DataDirectoryLock.acquire(directory: directory, name: "fleet-engine", server: "local Fleet Engine")
        }
        let message = refusal?.description ?? ""
        #expect(
            message.contains("in use by another local Fleet Engine")
                && message.contains("process \(ProcessInfo.processInfo.processIdentifier)"), "\(message)")
        #expect(throws: Never.self) {
            try DataDirectoryLock.acquire(directory: directory, name: "token-server", server: "token server").release()
        }
        first.release()
        try DataDirectoryLock.acquire(directory: directory, name: "fleet-engine", server: "local Fleet Engine")
            .release()
    }
}
