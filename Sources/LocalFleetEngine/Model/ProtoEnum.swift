/// A proto3 enum as Fleet Engine's JSON carries it: by value name, e.g. `"ONLINE"`.
///
/// Decoding a name the enum does not have fails with the list of names it does have, so a
/// request with a typo gets a 400 that says what would have been accepted.
public protocol ProtoEnum: RawRepresentable, CaseIterable, Decodable, Sendable, Hashable where RawValue == String {}

extension ProtoEnum {
    /// Decodes the value from its name, refusing unknown names with the known ones listed.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let value = Self(rawValue: name) else {
            let known = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(name)' is not one of \(known)")
        }
        self = value
    }
}
