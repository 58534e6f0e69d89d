import Foundation
import Hummingbird

extension Router {
    /// `METHOD /path` for each route whose path starts with `prefix`, each `{name}` that `fill`
    /// has a value for replaced by it, sorted by path: what a server's index page lists.
    package func routeList(under prefix: String = "/", filling fill: [String: String] = [:]) -> [String] {
        routes
            .map { route -> (path: String, method: String) in
                var path = route.path.description
                for (name, value) in fill { path = path.replacingOccurrences(of: "{\(name)}", with: value) }
                return (path, route.method.rawValue)
            }
            .filter { $0.path.hasPrefix(prefix) }
            .sorted { ($0.path, $0.method) < ($1.path, $1.method) }
            .map { "\($0.method) \($0.path)" }
    }
}
