import Hummingbird

/// The files web pages load from the token server: the browser module, and the example page.
package enum BrowserFiles {
    /// `Browser/fleetauth.js`: `createAuthTokenFetcher`, the `authTokenFetcher` of Google's
    /// JavaScript fleet libraries.
    static var module: [UInt8] { PackageResources.fleetauth_js }

    /// The example page's files under `/examples/`: name, media type, bytes.
    package static var examples: [(name: String, type: String, bytes: [UInt8])] {
        [
            ("rider.html", "text/html; charset=utf-8", PackageResources.rider_html),
            ("rider.js", "text/javascript; charset=utf-8", PackageResources.rider_js),
            ("rider.css", "text/css; charset=utf-8", PackageResources.rider_css),
        ]
    }

    /// The example page's Content-Security-Policy: its own files, scripts and calls only to
    /// loopback servers (where `serve` and `demo` run), nothing inline, no frames.
    package static let examplePolicy = [
        "default-src 'none'", "script-src 'self' http://localhost:* http://127.0.0.1:*", "style-src 'self'",
        "connect-src 'self' http://localhost:* http://127.0.0.1:*", "img-src 'self'", "base-uri 'none'", "form-action 'none'",
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
                    .contentType: "text/javascript; charset=utf-8", .accessControlAllowOrigin: "*", .cacheControl: "public, max-age=300",
                    .xContentTypeOptions: "nosniff",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: module)))
        }
        guard options.servesExamples else { return }
        let examples = router.group("examples")
        let policy = BrowserFiles.examplePolicy
        for file in BrowserFiles.examples {
            let bytes = file.bytes
            let headers: HTTPFields = [
                .contentType: file.type, .cacheControl: "no-cache", .contentSecurityPolicy: policy,
                .xContentTypeOptions: "nosniff",
            ]
            let answer: @Sendable (Request, TokenServerContext) -> Response = { _, _ in
                Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
            }
            examples.get(RouterPath(file.name), use: answer)
            if file.name == "rider.html" { examples.get("", use: answer) }
        }
    }
}
