import Foundation

/// Where a server keeps its rows: an SQLite file (the default, nothing to install) or a
/// PostgreSQL database (so that several replicas can share one fleet).
package enum DatabaseLocation: Sendable, Hashable, CustomStringConvertible {
    /// An SQLite database file, created when missing.
    case sqlite(path: String)
    /// A PostgreSQL database, `postgres://user:password@host:port/database`.
    case postgres(url: String)

    /// The SQLite file `fileName` inside `dataDirectory`, or the PostgreSQL database at
    /// `databaseURL` when one is given.
    package init(dataDirectory: String, fileName: String, databaseURL: String?) {
        if let databaseURL {
            self = .postgres(url: databaseURL)
        } else {
            self = .sqlite(path: URL(fileURLWithPath: dataDirectory).appendingPathComponent(fileName).path)
        }
    }

    /// The kind of database this location names.
    package var kind: DatabaseKind {
        switch self {
        case .sqlite: .sqlite
        case .postgres: .postgres
        }
    }

    /// The location for logs and messages, with any password replaced by `***`.
    package var description: String {
        switch self {
        case .sqlite(let path):
            return "sqlite:\(path)"
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "postgres (unparsable URL)" }
            if components.password != nil { components.password = "***" }
            return components.string ?? "postgres (unparsable URL)"
        }
    }
}

/// The SQL dialect a ``ServerDatabase`` speaks, for the rare statement that differs.
package enum DatabaseKind: String, Sendable, Hashable {
    /// SQLite 3 (WAL mode, `synchronous=NORMAL`, foreign keys on).
    case sqlite
    /// PostgreSQL.
    case postgres
}
