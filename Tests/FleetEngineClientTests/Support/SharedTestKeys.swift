import FleetTokens
import Foundation
import TokenServer

/// One set of signing keys for the whole test run (RSA key generation is slow).
enum SharedTestKeys {
    private static let folder: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-client-keys-\(UUID().uuidString)").path
        // Only fails on an unwritable temporary folder, where no test could run anyway.
        _ = try! SigningKeys.loadOrCreate(directory: folder, projectID: TestFleet.project)
        return folder
    }()

    /// Copies the shared keys into `directory` and loads them from there.
    static func install(in directory: String) throws -> SigningKeys {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) {
            try FileManager.default.copyItem(atPath: "\(folder)/\(file)", toPath: "\(directory)/\(file)")
        }
        return try SigningKeys.loadOrCreate(directory: directory, projectID: TestFleet.project)
    }
}
