import Foundation

extension FleetEngineClaims {
    /// The claims as JSON, written by `JSONEncoder` with the keys sorted (so that the same claims
    /// always make the same bytes; `JSONEncoder` on Linux otherwise orders them by hash) and
    /// slashes left as they are.
    package var jsonBytes: [UInt8] {
        // Claims of strings and integers always encode; the fallback keeps this non-throwing.
        Array((try? Self.encoder.encode(self)) ?? Data("{}".utf8))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
