import Foundation
import Logging
import PostgresKit
import PostgresNIO
import SQLKit

/// Lends connections from PostgresNIO's `PostgresClient` pool.
struct PostgresLender: SQLConnectionLender {
    let client: PostgresClient

    func withConnection<Result>(_ body: (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await client.withConnection { connection in
            do {
                return try await body(connection.sql(queryLogLevel: nil))
            } catch let unusable as ConnectionLeftUnusable {
                // The client drops a closed connection from its pool.
                try? await connection.close()
                throw unusable.cause
            }
        }
    }

    /// The client configuration for a `postgres://user:password@host:port/database` URL
    /// (`?sslmode=disable|prefer|require`; `prefer` by default, as libpq does).
    static func configuration(url: String, location: DatabaseLocation) throws(DatabaseError) -> PostgresClient.Configuration {
        let expected = "expected postgres://user:password@host:port/database[?sslmode=disable|prefer|require]"
        guard let components = URLComponents(string: url),
              let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme.lowercased()),
              let host = components.host, !host.isEmpty,
              let username = components.user, !username.isEmpty
        else {
            throw DatabaseError("\(location) is not a usable PostgreSQL URL; \(expected)")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        let mode = components.queryItems?.last(where: { ["sslmode", "tlsmode", "ssl", "tls"].contains($0.name.lowercased()) })?.value ?? "prefer"
        let tls: PostgresClient.Configuration.TLS
        switch mode.lowercased() {
        case "disable", "false": tls = .disable
        case "prefer", "allow", "true": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        default: throw DatabaseError("\(location): unknown sslmode '\(mode)'; \(expected)")
        }
        var configuration = PostgresClient.Configuration(
            host: host,
            port: components.port ?? 5432,
            username: username,
            password: components.password,
            database: database.isEmpty ? nil : database,
            tls: tls
        )
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }
}
