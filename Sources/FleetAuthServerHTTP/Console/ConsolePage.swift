/// A console's page: its `index.html`, `console.js` and `console.css`, and the kit every console
/// shares (`kit.js`, `kit.css`: calls with a key, the live stream, views, filters and pages kept
/// in the address, the frame's styles), never cached, under ``policy``.
package enum ConsolePage {
    /// The pages' Content-Security-Policy: their own files and calls only, nothing inline, no
    /// frames, no forms sent elsewhere.
    package static let policy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "img-src 'self' data:",
        "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// The page of `html`, `script` and `style`, with the kit.
    package static func files(html: [UInt8], script: [UInt8], style: [UInt8]) -> StaticFiles {
        StaticFiles(
            [
                .init("index.html", type: "text/html; charset=utf-8", bytes: html),
                .init("console.js", type: "text/javascript; charset=utf-8", bytes: script),
                .init("console.css", type: "text/css; charset=utf-8", bytes: style),
                .init("kit.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.kit_js),
                .init("kit.css", type: "text/css; charset=utf-8", bytes: PackageResources.kit_css),
            ],
            policy: policy, cacheControl: "no-store", index: "index.html")
    }
}
