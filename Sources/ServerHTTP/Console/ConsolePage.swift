import Hummingbird

/// A console's page, served from the binary under a route group: its own files and the kit
/// every console shares (`kit.js`, `kit.css`: calls with a key, the live stream, views, filters
/// and pages kept in the address, the frame's styles). Every file goes out with ``policy``.
package struct ConsolePage: Sendable {
    /// One file of a page.
    package struct File: Sendable {
        /// Its name under the group (`index.html`, also served at the group's own path).
        package let name: String
        /// Its media type.
        package let type: String
        /// Its bytes.
        package let bytes: [UInt8]

        /// A file named `name` of media type `type`.
        package init(_ name: String, type: String, bytes: [UInt8]) {
            self.name = name
            self.type = type
            self.bytes = bytes
        }
    }

    /// The page's files, the kit's among them.
    package let files: [File]

    /// A page of `files` (an `index.html` among them) and the kit.
    package init(_ files: [File]) {
        self.files = files + [
            File("kit.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.kit_js),
            File("kit.css", type: "text/css; charset=utf-8", bytes: PackageResources.kit_css),
        ]
    }

    /// The pages' Content-Security-Policy: their own files and calls only, nothing inline, no
    /// frames, no forms sent elsewhere.
    package static let policy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "img-src 'self' data:",
        "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// The paths under the group that are the page's files (`""` for `index.html`), as a router
    /// splits them, empty parts dropped.
    package var paths: [[Substring]] {
        [[]] + files.map { [Substring($0.name)] }
    }

    /// Answers `GET` of each file under `group`, never cached, never sniffed.
    package func register<Context: RequestContext>(on group: RouterGroup<Context>) {
        for file in files {
            let headers: HTTPFields = [
                .contentType: file.type, .contentSecurityPolicy: Self.policy, .cacheControl: "no-store", .xContentTypeOptions: "nosniff",
            ]
            let bytes = file.bytes
            let answer: @Sendable (Request, Context) -> Response = { _, _ in
                Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
            }
            group.get(RouterPath(file.name), use: answer)
            if file.name == "index.html" { group.get("", use: answer) }
        }
    }
}
