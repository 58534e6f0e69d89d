import Hummingbird

extension RouterMethods {
    /// Adds `GET /openapi.yaml`, answering `document`: the server's OpenAPI description, compiled
    /// in from the repository's `docs/` so that the server serves exactly what is documented.
    @discardableResult
    package func addOpenAPIRoute(_ document: [UInt8]) -> Self {
        get("openapi.yaml") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/yaml; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: document))
            )
        }
    }
}
