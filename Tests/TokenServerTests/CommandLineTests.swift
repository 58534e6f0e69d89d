import CommandSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// The built `fleetauth` binary, driven as a person would: the server as a child process, the
/// account and assignment commands on its data directory while it runs.
@Suite("fleetauth token-server, accounts and assign")
struct CommandLineTests {
    /// Runs `fleetauth arguments` with `input` on standard input.
    private func fleetauth(_ arguments: [String], input: String = "") async throws -> ChildProcess.Exit {
        try await ChildProcess.runFleetauth(arguments, input: input)
    }

    @Test("a newcomer's walk: start, create, assign, log in, get a token; revoke from the command line at once")
    func walkthrough() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleetauth-cli-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let data = ["--data-dir", folder]

        let missing = try await fleetauth(["accounts", "list"] + data)
        #expect(missing.status != 0)
        #expect(missing.output.contains("start 'fleetauth token-server --data-dir"))

        let server = try ChildProcess(
            [try ChildProcess.fleetauth] + [
                "token-server", "--port", "0", "--bcrypt-cost", "4", "--log-level", "warning",
            ] + data, standardError: .discarded)
        defer { server.kill() }
        let announced = try await server.output(containing: "listening on")
        #expect(announced.contains("created the admin API key in \(folder)/admin-key"))
        let adminKey = try String(contentsOfFile: folder + "/admin-key", encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(!announced.contains(adminKey))
        let port = try #require(ChildProcess.loopbackPorts(in: announced).first)

        #expect(
            try await fleetauth(
                ["accounts", "create", "ann", "--role", "driver", "--bcrypt-cost", "4"] + data, input: "correct horse\n"
            ).status == 0)
        #expect(try await fleetauth(["assign", "vehicle", "v-1", "ann"] + data).status == 0)
        let refused = try await fleetauth(["assign", "vehicle", "*", "ann"] + data)
        #expect(refused.status != 0 && refused.output.contains("vehicle id contains '*'"))
        let badRole = try await fleetauth(
            ["accounts", "create", "bob", "--role", "pilot"] + data, input: "correct horse\n")
        #expect(badRole.status != 0 && badRole.output.contains("unknown role \"pilot\""))
        // A role's former spelling still works, with a note; the account has the role's one spelling.
        let formerSpelling = try await fleetauth(
            ["accounts", "create", "dana", "--role", "trusted-delivery-driver", "--bcrypt-cost", "4"] + data,
            input: "correct horse\n")
        #expect(
            formerSpelling.status == 0
                && formerSpelling.output.contains(
                    "note: --role trusted-delivery-driver is now spelled delivery-trusted-driver"),
            "\(formerSpelling.output)")
        let listed = try await fleetauth(["accounts", "list"] + data).output
        #expect(listed.contains("vehicle/v-1"))
        #expect(
            listed.split(separator: "\n").contains { $0.hasPrefix("dana ") && $0.contains("delivery-trusted-driver") },
            "\(listed)")

        let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(20)))
        client.connect()
        let login = try await client.post(
            "/v1/sessions", headers: [.contentType: "application/json"],
            body: ByteBuffer(string: #"{"username":"ann","password":"correct horse"}"#))
        let session = try #require(
            (try JSONSerialization.jsonObject(with: Data(buffer: login.body ?? ByteBuffer())) as? [String: Any])?[
                "sessionToken"] as? String)
        let bearer: HTTPFields = [.authorization: "Bearer \(session)"]
        #expect(try await client.get("/v1/tokens/driver/v-1", headers: bearer).status == .ok)

        #expect(try await fleetauth(["assign", "vehicle", "v-1", "--remove"] + data).status == 0)
        #expect(try await client.get("/v1/tokens/driver/v-1", headers: bearer).status == .forbidden)
        #expect(try await fleetauth(["accounts", "delete", "ann"] + data).status == 0)
        #expect(try await client.get("/v1/tokens/driver/v-1", headers: bearer).status == .unauthorized)
        try await client.shutdown()

        server.terminate()
        let exit = try await server.exit(within: .seconds(30))
        #expect(exit.exited && exit.status == 0, "SIGTERM ends the server gracefully")
    }

    @Test("an operator points the server at their OpenID Connect issuer and links an account to a user of it")
    func bringYourOwnLogin() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fleetauth-cli-oidc-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let data = ["--data-dir", folder]

        let refused = try await fleetauth(
            ["token-server", "--oidc-issuer", "http://idp.example.com", "--oidc-audience", "app"] + data)
        #expect(refused.status != 0 && refused.output.contains("must be an https URL"))
        let noAudience = try await fleetauth(["token-server", "--oidc-issuer", "https://idp.example.com"] + data)
        #expect(noAudience.status != 0 && noAudience.output.contains("at least one audience"))

        try await OIDCIssuerStandIn.with(keys: [OIDCKeys.ec]) { issuer in
            let server = try ChildProcess(
                [try ChildProcess.fleetauth] + [
                    "token-server", "--port", "0", "--log-level", "warning", "--oidc-issuer", issuer.issuer,
                    "--oidc-audience", "fleet-app",
                ] + data, standardError: .discarded)
            defer { server.kill() }
            let announced = try await server.output(containing: "accepting ID tokens of")
            let port = try #require(ChildProcess.loopbackPorts(in: announced).first)

            let link = [
                "accounts", "create", "ann", "--role", "driver", "--identity-issuer", issuer.issuer,
                "--identity-subject", "uid-ann",
            ]
            let created = try await fleetauth(link + data)
            #expect(
                created.status == 0 && created.output.contains("linked to subject \"uid-ann\""), "\(created.output)")
            #expect(try await fleetauth(["assign", "vehicle", "v-1", "ann"] + data).status == 0)
            #expect(try await fleetauth(["accounts", "list"] + data).output.contains("uid-ann"))
            let half = try await fleetauth(
                ["accounts", "create", "bob", "--role", "driver", "--identity-issuer", issuer.issuer] + data)
            #expect(half.status != 0 && half.output.contains("give both --identity-issuer and --identity-subject"))

            let now = Int(Date().timeIntervalSince1970)
            let idToken = issuer.idToken(
                ["sub": "uid-ann", "aud": "fleet-app", "iat": now, "exp": now + 600], signedBy: OIDCKeys.ec)
            let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(20)))
            client.connect()
            let bearer: HTTPFields = [.authorization: "Bearer \(idToken)"]
            #expect(try await client.get("/v1/tokens/driver/v-1", headers: bearer).status == .ok)
            #expect(try await client.get("/v1/tokens/driver/v-2", headers: bearer).status == .forbidden)
            #expect(try await fleetauth(["accounts", "delete", "ann"] + data).status == 0)
            #expect(try await client.get("/v1/tokens/driver/v-1", headers: bearer).status == .forbidden)
            try await client.shutdown()
            server.terminate()
            _ = try await server.exit(within: .seconds(30))
        }
    }

    @Test(
        "the console is on at loopback, off beyond it unless --console on (or FLEETAUTH_CONSOLE=on), and off with --console off"
    )
    func consoleSwitch() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fleetauth-console-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cases: [(arguments: [String], environment: [String: String], served: Bool, line: String)] = [
            (["--host", "127.0.0.1"], [:], true, "/console/ (asks for the admin key)"),
            (
                ["--host", "0.0.0.0"], [:], false,
                "off: the server listens beyond loopback; give --console on to open it"
            ),
            (["--host", "0.0.0.0", "--console", "on"], [:], true, "/console/ (asks for the admin key)"),
            (["--host", "0.0.0.0"], ["FLEETAUTH_CONSOLE": "on"], true, "/console/ (asks for the admin key)"),
            (["--host", "127.0.0.1", "--console", "off"], [:], false, "off (--console off)"),
        ]
        for (arguments, environment, served, line) in cases {
            let server = try ChildProcess(
                [
                    try ChildProcess.fleetauth, "token-server", "--port", "0", "--bcrypt-cost", "4", "--log-level",
                    "warning", "--data-dir", folder,
                ] + arguments,
                environment: environment, standardError: .discarded)
            defer { server.kill() }
            let announced = try await server.output(containing: "console: ")
            #expect(announced.contains(line), "\(arguments) \(environment): \(announced)")
            let port = try #require(
                (ChildProcess.loopbackPorts(in: announced) + ChildProcess.ports(of: "0.0.0.0", in: announced)).first)
            let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(20)))
            client.connect()
            let page = try await client.get("/console/")
            #expect(page.status == (served ? .ok : .notFound), "\(arguments) \(environment)")
            try await client.shutdown()
            server.terminate()
            _ = try await server.exit(within: .seconds(30))
        }
    }
}
