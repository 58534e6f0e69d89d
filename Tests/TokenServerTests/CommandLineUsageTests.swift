import CommandSupport
import Foundation
import TestSupport
import Testing

/// What a newcomer meets at the command line when something is missing or spelled the old way.
@Suite("fleetauth usage errors and spellings")
struct CommandLineUsageTests {
    /// A driver key file in a fresh folder, and the folder.
    private func driverKey() async throws -> (key: String, folder: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fleetauth-usage-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let key = folder + "/driver.json"
        _ = try await ChildProcess.runFleetauth(["keygen", "--project", "p", "--role", "driver", "--out", key])
            .checked()
        return (key, folder)
    }

    @Test("keygen creates the folders its --out names, readable by the owner only")
    func keygenCreatesFolders() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fleetauth-keygen-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let key = folder + "/keys/server.json"
        _ = try await ChildProcess.runFleetauth(["keygen", "--project", "p", "--role", "server", "--out", key])
            .checked()
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder + "/keys")[.posixPermissions] as? Int
        let keyMode = try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int
        #expect(
            folderMode == 0o700 && keyMode == 0o600,
            "folder \(String(folderMode ?? 0, radix: 8)), key \(String(keyMode ?? 0, radix: 8))")
    }

    @Test("an option a subcommand finds missing while it runs prints that subcommand's usage, not the tool's")
    func subcommandUsage() async throws {
        let (key, folder) = try await driverKey()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let exit = try await ChildProcess.runFleetauth(["mint", "--key", key, "--kind", "driver"])
        #expect(exit.exited && exit.status == 64)
        #expect(exit.output.contains("Error: --kind driver needs --vehicle"), "\(exit.output)")
        #expect(exit.output.contains("Usage: fleetauth mint "), "\(exit.output)")
        #expect(exit.output.contains("See 'fleetauth mint --help'"), "\(exit.output)")
        #expect(!exit.output.contains("SUBCOMMANDS"), "the tool's own usage")
        let consumer = try await ChildProcess.runFleetauth(["mint", "--key", key, "--kind", "delivery-consumer"])
        #expect(
            consumer.output.contains("Error: --kind delivery-consumer needs --tracking or --task"), "\(consumer.output)"
        )
    }

    @Test("a delivery driver's kind is spelled as its role; the old spelling still works, with a note")
    func oneSpellingPerRole() async throws {
        let (key, folder) = try await driverKey()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (spelling, note) in [("delivery-untrusted-driver", false), ("untrusted-delivery-driver", true)] {
            let exit = try await ChildProcess.runFleetauth(
                ["mint", "--key", key, "--kind", spelling, "--delivery-vehicle", "dv-1", "--json"])
            #expect(exit.succeeded, "\(spelling): \(exit.output)")
            #expect(
                exit.output.contains("\"deliveryvehicleid\" : \"dv-1\"")
                    || exit.output.contains(#""deliveryvehicleid":"dv-1""#), "\(exit.output)")
            #expect(
                exit.output.contains("note: --kind untrusted-delivery-driver is now spelled delivery-untrusted-driver")
                    == note, "\(exit.output)")
            // The token's kind, in the JSON, has the one spelling.
            #expect(
                exit.output.contains(#""kind" : "delivery-untrusted-driver""#)
                    || exit.output.contains(#""kind":"delivery-untrusted-driver""#), "\(exit.output)")
            #expect(
                !exit.output.replacingOccurrences(of: "note: --kind untrusted-delivery-driver", with: "").contains(
                    "untrusted-delivery-driver"), "\(exit.output)")
        }
        let help = try await ChildProcess.runFleetauth(["mint", "--help"])
        #expect(
            help.output.contains("delivery-trusted-driver") && !help.output.contains("trusted-delivery-driver"),
            "\(help.output)")
    }

    @Test("inspect says a token minted this second was issued now, not 'in 0s'")
    func issuedNow() async throws {
        let (key, folder) = try await driverKey()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let started = Date()
        let token = try await ChildProcess.runFleetauth(["mint", "--key", key, "--kind", "driver", "--vehicle", "v-1"])
            .checked().output
        let inspected = try await ChildProcess.runFleetauth([
            "inspect", token.trimmingCharacters(in: .whitespacesAndNewlines),
        ]).checked().output
        let issued = try #require(inspected.split(separator: "\n").first { $0.hasPrefix("issued:") })
        // Now, or as many seconds ago as minting and inspecting took on a busy machine.
        let elapsed = Int(Date().timeIntervalSince(started).rounded(.up))
        #expect(
            issued.hasSuffix("(now)") || (1...max(1, elapsed)).contains { issued.hasSuffix("(\($0)s ago)") },
            "\(issued)")
        #expect(!inspected.contains("(in 0s)"))
    }
}
