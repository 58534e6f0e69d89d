/// Reads an `updateMask` (`google.protobuf.FieldMask` in a query parameter): comma-separated
/// field paths, in proto3 JSON's camelCase or the proto's snake_case.
package enum FieldMask {
    /// The fields `text` names, refusing a missing or empty mask and any path that is not an
    /// updatable top-level field of `Field`'s resource.
    package static func parse<Field: UpdatableField>(_ text: String?, as _: Field.Type = Field.self)
        throws(InvalidArgument) -> Set<Field>
    {
        // The mask of nearly every request: one field, in camelCase (REST) or snake_case (gRPC).
        // (No field's name has an underscore, comma or space, which the general path below
        // would treat differently.)
        if let text, let field = Field(rawValue: text) ?? Field(rawValue: camelCase(text)) { return [field] }
        var known: String { Field.allCases.map(\.rawValue).joined(separator: ", ") }
        let paths = (text ?? "").split(separator: ",").map(trimmingSpaces).filter { !$0.isEmpty }
        guard !paths.isEmpty else {
            throw InvalidArgument(
                "updateMask is required: name the \(Field.resourceName) fields to change (\(known)), e.g. ?updateMask=\(Field.allCases.first!.rawValue)"
            )
        }
        var fields: Set<Field> = []
        for path in paths {
            guard let field = Field(rawValue: camelCase(path)) else {
                throw InvalidArgument(
                    "updateMask names '\(path)', which is not a \(Field.resourceName) field that can be updated (\(known))"
                )
            }
            fields.insert(field)
        }
        return fields
    }

    /// The fields of `Field`'s resource that `text` names, leaving out what is not one: what a
    /// permission decision, made before the mask is checked, goes by.
    static func named<Field: UpdatableField>(_ text: String?, as _: Field.Type = Field.self) -> Set<Field> {
        Set((text ?? "").split(separator: ",").compactMap { Field(rawValue: camelCase(trimmingSpaces($0))) })
    }

    /// `path` without leading and trailing spaces.
    static func trimmingSpaces(_ path: Substring) -> String {
        var trimmed = path.drop { $0 == " " }
        while trimmed.last == " " { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    /// `last_location` → `lastLocation`: each underscore dropped and the ASCII letter after it
    /// capitalized; camelCase paths are returned unchanged.
    static func camelCase(_ path: String) -> String {
        guard path.utf8.contains(UInt8(ascii: "_")) else { return path }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        var capitalizeNext = false
        for byte in path.utf8 {
            if byte == UInt8(ascii: "_") {
                capitalizeNext = true
                continue
            }
            let isLowercase = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            bytes.append(capitalizeNext && isLowercase ? byte - 32 : byte)
            capitalizeNext = false
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
