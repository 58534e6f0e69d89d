import FleetAuthServerHTTP
import Hummingbird

/// The files web pages load from the token server: the browser module, and the example page.
package enum BrowserFiles {
    /// `Browser/fleetauth.js`: `createAuthTokenFetcher`, the `authTokenFetcher` of Google's
    /// JavaScript fleet libraries.
    static var module: [UInt8] { PackageResources.fleetauth_js }

    /// The example page's files under `/examples/`, with their policy.
    package static var examples: StaticFiles {
        StaticFiles(
            [
                .init("rider.html", type: "text/html; charset=utf-8", bytes: PackageResources.rider_html),
                .init("rider.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.rider_js),
                .init("rider.css", type: "text/css; charset=utf-8", bytes: PackageResources.rider_css),
            ],
            policy: examplePolicy, cacheControl: "no-cache", index: "rider.html")
    }

    /// The example page's Content-Security-Policy: its own files, scripts and calls only to
    /// loopback servers (where `serve` and `demo` run), nothing inline, no frames.
    package static let examplePolicy = [
        "default-src 'none'", "script-src 'self' http://localhost:* http://127.0.0.1:*", "style-src 'self'",
        "connect-src 'self' http://localhost:* http://127.0.0.1:*", "img-src 'self'", "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ].joined(separator: "; ")
}

extension TokenServer {
    /// `GET /sdk/fleetauth.js`, readable by every page (it is public code), and with
    /// ``TokenServerOptions/servesExamples`` the example page: `GET /examples/` and its files.
    func addBrowserRoutes(to router: Router<TokenServerContext>) {
        let module = BrowserFiles.module
        router.get("sdk/fleetauth.js") { _, _ in
            Response(
                status: .ok,
                headers: [
                    .contentType: "text/javascript; charset=utf-8", .accessControlAllowOrigin: "*",
                    .cacheControl: "public, max-age=300",
                    .xContentTypeOptions: "nosniff",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: module)))
        }
        guard options.servesExamples else { return }
        BrowserFiles.examples.register(on: router.group("examples"))
    }
}
