import FleetAuthServerHTTP

/// Reads the resource names gRPC requests carry where REST has a path:
/// `providers/{provider}` and `providers/{provider}/{collection}/{id}`. Read in place, without
/// splitting the name into an array: every gRPC call reads one.
enum ResourceNames {
    /// The provider of `parent`, `providers/{provider}`; 400 otherwise.
    static func provider(ofParent parent: String) throws(APIError) -> String {
        guard let provider = afterProviders(parent), !provider.isEmpty, !provider.utf8.contains(slash) else {
            throw .invalidArgument("parent must be providers/{provider}; it is '\(parent)'")
        }
        return String(provider)
    }

    /// The provider and id of `name`, `providers/{provider}/{collection}/{id}`; 400 otherwise.
    static func parse(_ name: String, collection: String) throws(APIError) -> (provider: String, id: String) {
        func refusal() -> APIError {
            .invalidArgument("name must be providers/{provider}/\(collection)/{id}; it is '\(name)'")
        }
        guard let tail = afterProviders(name), let separator = tail.utf8.firstIndex(of: slash),
            separator > tail.startIndex
        else { throw refusal() }
        let rest = tail[tail.utf8.index(after: separator)...]
        guard rest.utf8.starts(with: collection.utf8) else { throw refusal() }
        let collectionEnd = rest.utf8.index(rest.startIndex, offsetBy: collection.utf8.count)
        guard collectionEnd < rest.endIndex, rest.utf8[collectionEnd] == slash else { throw refusal() }
        let id = rest[rest.utf8.index(after: collectionEnd)...]
        guard !id.utf8.contains(slash) else { throw refusal() }
        return (String(tail[..<separator]), String(id))
    }

    private static let slash = UInt8(ascii: "/")
    private static let providersPrefix = "providers/"

    /// What follows `providers/` in `text`, or `nil` when it does not start so.
    private static func afterProviders(_ text: String) -> Substring? {
        guard text.utf8.starts(with: providersPrefix.utf8) else { return nil }
        return text[text.utf8.index(text.startIndex, offsetBy: providersPrefix.utf8.count)...]
    }
}
