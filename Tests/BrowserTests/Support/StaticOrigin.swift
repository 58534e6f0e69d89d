import FleetAuthServerHTTP
import Foundation
import Hummingbird
import Logging
import TokenServer

/// A web page's own origin: a static server on a loopback port of its own serving the example
/// page's files (as the token server ships them, with its Content-Security-Policy) and an empty
/// page, as a site that embeds FleetAuth's module would.
struct StaticOrigin: Sendable {
    /// `http://127.0.0.1:PORT`.
    let origin: String
    private let run: RunningService

    /// Serves the files on a free port until ``stop()``.
    static func start() async throws -> StaticOrigin {
        let router = Router()
        // The example's files as the token server ships them, with its policy.
        for file in BrowserFiles.examples.files {
            let bytes = file.bytes
            let headers: HTTPFields = [.contentType: file.type, .contentSecurityPolicy: BrowserFiles.examplePolicy]
            router.get(RouterPath("examples/\(file.name)")) { _, _ in
                Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
            }
        }
        router.get("blank.html") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "<!doctype html><title>blank</title>")))
        }
        let logger = Logger(label: "static-origin") { _ in SwiftLogNoOpLogHandler() }
        let run = try await RunningService.start(logger: logger) { onStarted in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { await onStarted($0.localAddress?.port ?? 0) }, logger: logger)
        }
        return StaticOrigin(origin: "http://127.0.0.1:\(run.port)", run: run)
    }

    /// Stops the server.
    func stop() async {
        await run.stop()
    }
}
