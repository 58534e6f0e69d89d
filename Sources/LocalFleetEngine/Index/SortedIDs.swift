/// A set of ids kept in ascending order, in chunks of at most ``chunkCapacity``: an insertion
/// or a removal moves the elements of one chunk and the chunk list's entries, not the whole
/// set, and reading on from an id starts with two binary searches. What a listing pages
/// through.
struct SortedIDs: Sendable, Equatable {
    /// The most ids in one chunk; a fuller chunk is split in two.
    static let chunkCapacity = 256

    /// Non-empty, each sorted, each one's ids below the next one's.
    private var chunks: [[String]] = []
    /// How many ids there are.
    private(set) var count = 0

    /// Adds `id`; whether it was not there yet.
    @discardableResult
    mutating func insert(_ id: String) -> Bool {
        guard !chunks.isEmpty else {
            chunks = [[id]]
            count = 1
            return true
        }
        let chunk = min(chunkIndex(for: id), chunks.count - 1)
        let position = Self.lowerBound(of: id, in: chunks[chunk])
        if position < chunks[chunk].count, chunks[chunk][position] == id { return false }
        chunks[chunk].insert(id, at: position)
        count += 1
        if chunks[chunk].count > Self.chunkCapacity {
            let upperHalf = Array(chunks[chunk][(Self.chunkCapacity / 2)...])
            chunks[chunk].removeLast(upperHalf.count)
            chunks.insert(upperHalf, at: chunk + 1)
        }
        return true
    }

    /// Removes `id`; whether it was there.
    @discardableResult
    mutating func remove(_ id: String) -> Bool {
        let chunk = chunkIndex(for: id)
        guard chunk < chunks.count else { return false }
        let position = Self.lowerBound(of: id, in: chunks[chunk])
        guard position < chunks[chunk].count, chunks[chunk][position] == id else { return false }
        chunks[chunk].remove(at: position)
        count -= 1
        if chunks[chunk].isEmpty { chunks.remove(at: chunk) }
        return true
    }

    /// The ids above `id` (all of them when `nil`), in ascending order.
    func ids(after id: String?) -> Iterator {
        guard let id else { return Iterator(chunks: chunks, chunk: 0, position: 0) }
        let chunk = chunkIndex(for: id)
        guard chunk < chunks.count else { return Iterator(chunks: chunks, chunk: chunk, position: 0) }
        var position = Self.lowerBound(of: id, in: chunks[chunk])
        if position < chunks[chunk].count, chunks[chunk][position] == id { position += 1 }
        return Iterator(chunks: chunks, chunk: chunk, position: position)
    }

    /// Reads the ids on in ascending order.
    struct Iterator: IteratorProtocol {
        fileprivate let chunks: [[String]]
        fileprivate var chunk: Int
        fileprivate var position: Int

        /// The next id, or `nil` past the last.
        mutating func next() -> String? {
            while chunk < chunks.count {
                if position < chunks[chunk].count {
                    defer { position += 1 }
                    return chunks[chunk][position]
                }
                chunk += 1
                position = 0
            }
            return nil
        }
    }

    /// The first chunk whose last id is not below `id` (`chunks.count` when there is none).
    private func chunkIndex(for id: String) -> Int {
        var low = 0, high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if chunks[middle][chunks[middle].count - 1] < id { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The first position in sorted `ids` whose id is not below `id`.
    private static func lowerBound(of id: String, in ids: [String]) -> Int {
        var low = 0, high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
