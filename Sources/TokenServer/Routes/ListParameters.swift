import FleetAuthServerHTTP

/// The query of an admin listing (`GET accounts`, `assignments`, `issued-tokens`): its
/// `pageSize` (1 to 1,000, 100 by default) and `pageToken`, and its other parameters in order.
/// Any parameter but those named is refused (400) by name.
struct ListParameters {
    /// The most entries a page holds, and how many by default.
    static let pageSizes = (largest: 1000, byDefault: 100)

    /// How many entries a page holds.
    private(set) var pageSize = pageSizes.byDefault
    /// Where the page starts, as the page before gave it.
    private(set) var pageToken: String?
    /// The other parameters, in the order given (a name may come twice).
    private(set) var others: [(name: Substring, value: String)] = []

    /// Reads `parameters`, refusing any but `allowed`, `pageSize` and `pageToken`.
    init(_ parameters: some Sequence<(key: Substring, value: Substring)>, allowed: [Substring]) throws {
        for (name, value) in parameters {
            switch name {
            case "pageSize":
                guard let size = Int(value), (1...Self.pageSizes.largest).contains(size) else {
                    throw APIError.invalidArgument("pageSize is 1 to \(Self.pageSizes.largest)")
                }
                pageSize = size
            case "pageToken": pageToken = String(value)
            case let name where allowed.contains(name): others.append((name, String(value)))
            default:
                let names = (allowed + ["pageSize", "pageToken"]).joined(separator: ", ")
                throw APIError.invalidArgument("unknown parameter \"\(name)\"; this path takes \(names)")
            }
        }
    }

    /// The last value given for `name`, if any.
    func value(_ name: Substring) -> String? {
        others.last { $0.name == name }?.value
    }
}
