import Foundation

/// A token server URL with placeholders for the context's ids, such as
/// `https://tokens.example.com/v1/tokens/driver/{vehicleId}`.
///
/// Placeholders: `{vehicleId}`, `{tripId}`, `{deliveryVehicleId}`, `{taskId}`, `{trackingId}`.
/// Values are percent-encoded, so an id cannot change the shape of the URL.
public struct TokenURLTemplate: Sendable, CustomStringConvertible {
    /// Why a template string was refused.
    #if hasAttribute(nonexhaustive)
        @nonexhaustive  // more cases may come: switch with `@unknown default`
    #endif
    public enum ParseError: Error, Equatable, Sendable {
        /// A name between braces that is not one of the known placeholders.
        case unknownPlaceholder(String)
        /// A `{` without its `}`, or the other way round.
        case unbalancedBraces
        /// The template does not make a URL even with its placeholders filled in.
        case invalidURL
    }

    private enum Part: Sendable {
        case literal(String)
        case placeholder(String)
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )

    private let parts: [Part]

    /// The template as written.
    public let description: String

    /// Parses `template`, checking that every placeholder is known and that it makes a URL.
    public init(_ template: String) throws(ParseError) {
        var parts: [Part] = []
        var rest = template[...]
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            guard rest[open] == "{", let close = rest[open...].firstIndex(of: "}") else {
                throw .unbalancedBraces
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard AuthorizationContext.placeholderNames.contains(name) else {
                throw .unknownPlaceholder(name)
            }
            parts.append(.literal(String(rest[..<open])))
            parts.append(.placeholder(name))
            rest = rest[rest.index(after: close)...]
        }
        parts.append(.literal(String(rest)))
        self.parts = parts
        self.description = template
        guard URL(string: expand { _ in "a%2F-._~" }) != nil else { throw .invalidURL }
    }

    /// The URL for `context`.
    ///
    /// - Throws: ``TokenProviderError/missingAuthorizationContext(placeholder:)`` when the
    ///   template names an id the context does not have (or has empty).
    public func url(for context: AuthorizationContext) throws(TokenProviderError) -> URL {
        let text = try expand { name throws(TokenProviderError) in
            guard let value = context.value(forPlaceholder: name), !value.isEmpty else {
                throw .missingAuthorizationContext(placeholder: name)
            }
            return value.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? ""
        }
        // Cannot fail: `init` made a URL with every placeholder filled by unreserved characters
        // and an escape, which is all a percent-encoded id consists of.
        return URL(string: text)!
    }

    /// The template with each placeholder replaced by `value(name)`.
    private func expand<Failure: Error>(_ value: (String) throws(Failure) -> String) throws(Failure) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .literal(let literal): text += literal
            case .placeholder(let name): text += try value(name)
            }
        }
        return text
    }
}
