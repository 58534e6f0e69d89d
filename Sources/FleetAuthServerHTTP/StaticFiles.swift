import Hummingbird

/// Files served from the binary under a route group (a console's page, the example page), each
/// with the same Content-Security-Policy and caching, never sniffed; the `index` file is also
/// the group's own path.
package struct StaticFiles: Sendable {
    /// One file.
    package struct File: Sendable {
        /// Its name under the group.
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

    /// The files.
    package let files: [File]
    /// The Content-Security-Policy each goes out with.
    package let policy: String
    /// Their `Cache-Control`.
    package let cacheControl: String
    /// The file also served at the group's own path.
    package let index: String

    /// `files` with `policy` and `cacheControl`; `index` also at the group's path.
    package init(_ files: [File], policy: String, cacheControl: String, index: String) {
        self.files = files
        self.policy = policy
        self.cacheControl = cacheControl
        self.index = index
    }

    /// The paths under the group that are these files (`[]` for the index), as a router splits
    /// them, empty parts dropped.
    package var paths: [[Substring]] {
        [[]] + files.map { [Substring($0.name)] }
    }

    /// Answers `GET` of each file under `group`.
    package func register<Context: RequestContext>(on group: RouterGroup<Context>) {
        for file in files {
            let headers: HTTPFields = [
                .contentType: file.type, .contentSecurityPolicy: policy, .cacheControl: cacheControl,
                .xContentTypeOptions: "nosniff",
            ]
            let bytes = file.bytes
            let answer: @Sendable (Request, Context) -> Response = { _, _ in
                Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
            }
            group.get(RouterPath(file.name), use: answer)
            if file.name == index { group.get("", use: answer) }
        }
    }
}
