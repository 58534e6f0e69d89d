import Foundation

/// A fresh folder under the system's temporary directory for the files of one bench run
/// (databases, token lists, wrk scripts).
enum BenchFolder {
    /// Creates the folder and returns its path; remove it with ``remove(_:)`` when done.
    static func create() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fleetauth-bench-\(UUID().uuidString)"
        ).path
        // Its owner's only: servers keep keys and password hashes in it.
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }

    /// Removes the folder and everything in it.
    static func remove(_ folder: String) {
        try? FileManager.default.removeItem(atPath: folder)
    }
}
