import FleetAuthCodecs
import FleetTokens
import Foundation

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

    /// The page of at most `size` items (0: ``defaultSize``) that `passes` lets through, reading
    /// `candidates` (ids in order, from an index or every id) after the one `token` ended; the
    /// token of the next page; and the number that pass on every page: `candidates`' count
    /// when `everyCandidatePasses`, else counted one by one.
    static func page<Item>(
        of candidates: SortedIDs, size: Int, token: String, everyCandidatePasses: Bool, passes: (String) -> Item?
    ) throws(InvalidArgument) -> (items: [Item], nextPageToken: String, totalSize: Int64) {
        let size = size == 0 ? defaultSize : size
        var items: [Item] = []
        var nextPageToken = ""
        var ids = candidates.ids(after: try lastID(in: token))
        var lastShown: String?
        while let id = ids.next() {
            guard let item = passes(id) else { continue }
            guard items.count < size else {
                nextPageToken = lastShown.map(Self.token(after:)) ?? ""
                break
            }
            items.append(item)
            lastShown = id
        }
        guard !everyCandidatePasses else { return (items, nextPageToken, Int64(candidates.count)) }
        var all = candidates.ids(after: nil)
        var total: Int64 = 0
        while let id = all.next() { if passes(id) != nil { total += 1 } }
        return (items, nextPageToken, total)
    }
}
