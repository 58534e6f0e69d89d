import ServerHTTP

/// Reads the resource names gRPC requests carry where REST has a path:
/// `providers/{provider}` and `providers/{provider}/{collection}/{id}`.
enum ResourceNames {
    /// The provider of `parent`, `providers/{provider}`; 400 otherwise.
    static func provider(ofParent parent: String) throws(APIError) -> String {
        let parts = parent.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "providers", !parts[1].isEmpty else {
            throw .invalidArgument("parent must be providers/{provider}; it is '\(parent)'")
        }
        return String(parts[1])
    }

    /// The provider and id of `name`, `providers/{provider}/{collection}/{id}`; 400 otherwise.
    static func parse(_ name: String, collection: String) throws(APIError) -> (provider: String, id: String) {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "providers", !parts[1].isEmpty, parts[2] == collection else {
            throw .invalidArgument("name must be providers/{provider}/\(collection)/{id}; it is '\(name)'")
        }
        return (String(parts[1]), String(parts[3]))
    }
}
