import CommandSupport
import Foundation
import TestSupport
import Testing

/// TLS from PEM files on every port of `fleetauth serve`: the token server's, the local Fleet
/// Engine's REST and gRPC ports (ALPN h2, so Google's client connects with
/// `grpc.ssl_channel_credentials`), and the files read again on SIGHUP.
@Suite(
    "TLS on both servers, reloaded on SIGHUP",
    .enabled("python3 with google-maps-fleetengine is not installed; CI installs it") {
        await PythonClient.isAvailable()
    }
)
struct TLSTests {
    @Test("HTTPS and gRPC over TLS with a self-signed certificate; after SIGHUP new connections get the new one")
    func tlsAndReload() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleetauth-tls-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (cert, key) = (folder + "/cert.pem", folder + "/key.pem")
        try await Self.makeCertificate(certificate: cert, key: key, name: "first")

        let serve = try ChildProcess([
            try ChildProcess.fleetauth, "serve", "--data-dir", folder + "/data", "--token-server-port", "0",
            "--fleet-engine-port", "0",
            "--grpc-port", "0", "--tls-cert", cert, "--tls-key", key,
        ])
        defer { serve.kill() }
        let banner = try await serve.output(containing: "Try it")
        #expect(banner.contains("https://127.0.0.1:"), "\(banner)")
        let ports = ChildProcess.loopbackPorts(in: banner)
        let tokenServer = try #require(ports.first)
        let engine = try #require(ports.dropFirst().first)
        let grpc = try #require(banner.firstMatch(of: /gRPC: 127\.0\.0\.1:(\d+)/).flatMap { Int($0.1) })
        let token = try await ChildProcess.runFleetauth([
            "mint", "--key", folder + "/data/keys/server.json", "--kind", "server",
        ]).checked().output
            .trimmingCharacters(in: .whitespacesAndNewlines)

        let first = try await PythonClient.run(
            Self.probe,
            input: [
                "ca": cert, "https": ["https://127.0.0.1:\(tokenServer)/livez", "https://127.0.0.1:\(engine)/readyz"],
                "grpc": "localhost:\(grpc)", "token": token,
            ])
        #expect(first["https"] as? [Int] == [200, 200], "\(first)")
        #expect(first["grpc"] as? String == "NOT_FOUND", "a call over TLS reaches the engine, which answers: \(first)")
        #expect(first["subject"] as? String == "first")
        #expect(first["tls"] as? String == "TLSv1.3" || first["tls"] as? String == "TLSv1.2")

        try await Self.makeCertificate(certificate: cert, key: key, name: "second")
        serve.hangUp()
        try await Task.sleep(for: .milliseconds(500))
        let second = try await PythonClient.run(
            Self.probe,
            input: [
                "ca": cert, "https": ["https://127.0.0.1:\(tokenServer)/livez"], "grpc": "localhost:\(grpc)",
                "token": token,
            ])
        #expect(second["subject"] as? String == "second", "new connections get the new certificate: \(second)")
        #expect(second["grpc"] as? String == "NOT_FOUND", "the gRPC port too: \(second)")

        serve.terminate()
        #expect(try await serve.exit(within: .seconds(20)).succeeded)
    }

    /// A self-signed certificate for localhost and 127.0.0.1 whose common name is `name`.
    private static func makeCertificate(certificate: String, key: String, name: String) async throws {
        _ = try await ChildProcess.run([
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days",
            "1",
            "-subj", "/CN=\(name)", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ]).checked()
    }

    /// Reads {ca, https: [url], grpc: target, token}; prints {https: [status], grpc: status name,
    /// subject: the token server's certificate's CN, tls: the version}.
    private static let probe = #"""
        import json, socket, ssl, sys, urllib.request
        import grpc
        from google.api_core import exceptions
        from google.maps import fleetengine_v1 as fe
        from google.maps.fleetengine_v1.services.vehicle_service.transports import VehicleServiceGrpcTransport
        config = json.load(sys.stdin)
        context = ssl.create_default_context(cafile=config["ca"])
        statuses = [urllib.request.urlopen(url, context=context, timeout=10).status for url in config["https"]]
        host, port = config["https"][0].split("//")[1].split("/")[0].split(":")
        with socket.create_connection((host, int(port)), timeout=10) as raw, context.wrap_socket(raw, server_hostname=host) as tls:
            subject = dict(pair[0] for pair in tls.getpeercert()["subject"])["commonName"]
            version = tls.version()
        credentials = grpc.ssl_channel_credentials(root_certificates=open(config["ca"], "rb").read())
        channel = grpc.secure_channel(config["grpc"], credentials)
        vehicles = fe.VehicleServiceClient(transport=VehicleServiceGrpcTransport(channel=channel))
        try:
            vehicles.get_vehicle(request=fe.GetVehicleRequest(name="providers/local-project/vehicles/nowhere"),
                                 metadata=[("authorization", "Bearer " + config["token"])], timeout=10)
            status = "OK"
        except exceptions.GoogleAPICallError as error:
            status = error.grpc_status_code.name if error.grpc_status_code else type(error).__name__
        print(json.dumps({"https": statuses, "grpc": status, "subject": subject, "tls": version}))
        """#
}

/// Python 3 with Google's Fleet Engine client, for the tests that drive it.
enum PythonClient {
    /// Whether it is here. CI installs it, so there a missing module fails instead of skipping.
    static func isAvailable() async -> Bool {
        if ProcessInfo.processInfo.environment["CI"] != nil { return true }
        let exit = try? await ChildProcess(["python3", "-c", "import google.maps.fleetengine_v1"]).exit(
            within: .seconds(60))
        return exit?.succeeded == true
    }

    /// Runs `script` with `input` as JSON on standard input; returns the JSON object of its last line.
    static func run(_ script: String, input: [String: Any]) async throws -> [String: Any] {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: input), as: UTF8.self)
        let exit = try await ChildProcess(["python3", "-c", script], input: json).exit(within: .seconds(60))
        try #require(exit.succeeded, "\(exit.output)")
        let last = exit.output.split(separator: "\n").last.map(String.init) ?? ""
        return try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any], "\(exit.output)")
    }
}
