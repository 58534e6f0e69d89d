import ArgumentParser
import FleetTokens
import Foundation

/// `fleetauth keygen`: writes a new service-account key file in Google's exact shape.
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Write a new RSA-2048 service-account key file (Google's JSON shape, mode 0600)."
    )

    @Option(help: "The Cloud project id (Fleet Engine provider id).")
    var project: String

    @Option(help: "The Fleet Engine role the account is for.")
    var role: FleetEngineRole

    @Option(help: "The account id (the part of the email before @); defaults to fe-<role>.")
    var account: String?

    @Option(help: "Where to write the key file (missing folders are created, mode 0700).")
    var out: String

    @Flag(help: "Replace an existing file.")
    var force = false

    func run() throws {
        let key = try ServiceAccountKey.generate(projectID: project, role: role, accountID: account)
        let folder = URL(fileURLWithPath: out).deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ValidationError("\(folder): cannot be created as a folder for the key file")
        }
        try key.write(to: out, overwrite: force)
        print("wrote \(out) (mode 0600)")
        print("  account: \(key.clientEmail)")
        print("  role:    \(role.rawValue)")
        print("  kid:     \(key.privateKeyID)")
    }
}
