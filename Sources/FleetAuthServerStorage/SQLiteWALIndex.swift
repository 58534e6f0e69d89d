import Synchronization
import VaporCSQLite

/// The header of an SQLite database's WAL index (its `-shm` file), read from the memory SQLite
/// maps it into: a change signal that costs no system call.
///
/// Every commit, by any connection of any process, rewrites the header before the commit
/// returns (its change counter and last frame move; a WAL restart changes its salts). So while
/// the header reads the same, no commit came between, and the database holds what it held when
/// the header was last read. (Checkpoints that truncate the WAL and recovery rewrite it too,
/// without a change of content: a reader then only reads again what it had.)
///
/// The format is SQLite's documented WAL-index format (https://www.sqlite.org/walformat.html):
/// two copies of a 48-byte header, the second written first, so a reader that finds both
/// copies equal has not caught a writer half-way.
struct SQLiteWALIndex {
    /// The WAL index's first 32 KiB region, as the connection maps it.
    private let region: UnsafeRawPointer

    /// What the header holds at one moment, compared whole.
    struct Header: Equatable {
        fileprivate var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

        static func == (lhs: Header, rhs: Header) -> Bool {
            lhs.words == rhs.words
        }
    }

    /// The WAL index of `connection`'s main database, which must have read in WAL mode once
    /// (that is when SQLite maps it). `nil` when it is not mapped or the VFS cannot say where.
    ///
    /// The memory stays mapped while the connection is open.
    init?(of connection: OpaquePointer) {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite_nio_sqlite3_file_control(connection, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
            let file, let methods = file.pointee.pMethods, methods.pointee.iVersion >= 2,
            let map = methods.pointee.xShmMap
        else { return nil }
        var region: UnsafeMutableRawPointer?
        // Region 0 of SQLite's 32 KiB WAL-index pages; already mapped, so nothing is extended.
        let mapped = withUnsafeMutablePointer(to: &region) { pointer in
            pointer.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 1) { map(file, 0, 32_768, 0, $0) }
        }
        guard mapped == SQLITE_OK, let region else { return nil }
        self.region = UnsafeRawPointer(region)
    }

    /// The header now; `nil` while a writer is rewriting it, or before the index is set up.
    func header() -> Header? {
        let first = Header(words: words(at: 0))
        // SQLite writes the second copy, then the first: reading in the other order with a
        // barrier between, equal copies are a whole header.
        atomicMemoryFence(ordering: .acquiring)
        let second = Header(words: words(at: 48))
        let version = region.load(as: UInt32.self)
        let isInitialized = region.load(fromByteOffset: 12, as: UInt8.self) != 0
        guard first == second, version == 3_007_000, isInitialized else { return nil }
        return first
    }

    private func words(at offset: Int) -> (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) {
        (
            region.load(fromByteOffset: offset, as: UInt64.self),
            region.load(fromByteOffset: offset + 8, as: UInt64.self),
            region.load(fromByteOffset: offset + 16, as: UInt64.self),
            region.load(fromByteOffset: offset + 24, as: UInt64.self),
            region.load(fromByteOffset: offset + 32, as: UInt64.self),
            region.load(fromByteOffset: offset + 40, as: UInt64.self)
        )
    }
}
