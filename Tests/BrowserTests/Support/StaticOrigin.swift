import Foundation
import Hummingbird
import Logging
import ServerHTTP
import TokenServer

/// A web page's own origin: a static server on a loopback port of its own serving the example
/// page's files from `Browser/examples/` (with the Content-Security-Policy the token server
/// sends them with) and an empty page, as a site that embeds FleetAuth's module would.
struct StaticOrigin: Sendable {
    /// `http://127.0.0.1:PORT`.
    let origin: String
    private let run: RunningService

    /// The repository's `Browser/` folder.
    static let browserFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser")

    /// Serves the files on a free port until ``stop()``.
    static func start() async throws -> StaticOrigin {
        let router = Router()
        let types = ["html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8"]
        let policy = BrowserFiles.examplePolicy
        router.get("examples/:file") { _, context -> Response in
            let name = try context.parameters.require("file")
            let file = browserFolder.appendingPathComponent("examples").appendingPathComponent(name)
            guard !name.contains("/"), let bytes = try? Data(contentsOf: file), let type = types[file.pathExtension] else {
                return Response(status: .notFound)
            }
            return Response(
                status: .ok, headers: [.contentType: type, .contentSecurityPolicy: policy], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        router.get("blank.html") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "<!doctype html><title>blank</title>")))
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
