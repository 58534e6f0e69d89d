/// The OpenAPI 3.1 description of this API, `docs/token-server.openapi.yaml`, compiled in so
/// that `GET /openapi.yaml` serves exactly the repository's document.
enum OpenAPIDocument {
    /// The YAML text as UTF-8 bytes.
    static var yaml: [UInt8] { PackageResources.token_server_openapi_yaml }
}
