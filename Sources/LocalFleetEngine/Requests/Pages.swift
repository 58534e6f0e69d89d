import FleetTokens
import Foundation
import LeanCodecs

/// Pages of resources sorted by id, as ListVehicles and SearchTrips give them: a page token is
/// the last id of the page before, base64url-encoded (opaque to callers, as at Google).
enum Pages {
    /// The page size when a request gives none, as at Google.
    static let defaultSize = 100

    /// The page of `found` (sorted by id) of at most `size` items (0: ``defaultSize``) after
    /// the one `token` ended, and the token of the next page (empty on the last one).
    static func page<Item>(
        of found: [(id: String, item: Item)], size: Int, token: String
    ) throws(InvalidArgument) -> (items: [Item], nextPageToken: String) {
        var start = found.startIndex
        if let last = try lastID(in: token) {
            start = found.firstIndex { $0.id > last } ?? found.endIndex
        }
        let page = found[start...].prefix(size == 0 ? defaultSize : size)
        let next = page.endIndex < found.endIndex ? page.last.map { Self.token(after: $0.id) } ?? "" : ""
        return (page.map(\.item), next)
    }

    /// The id the page of `token` ended with (`nil` for the first page's empty token).
    static func lastID(in token: String) throws(InvalidArgument) -> String? {
        guard !token.isEmpty else { return nil }
        guard let last = Base64URL.decode(Substring(token)).flatMap({ String(data: $0, encoding: .utf8) }) else {
            throw InvalidArgument("pageToken is not one this engine gave; pass nextPageToken unchanged")
        }
        return last
    }

    /// The token of the page after the one that ended with `id`.
    static func token(after id: String) -> String {
        Base64URL.encode(Data(id.utf8))
    }
}
