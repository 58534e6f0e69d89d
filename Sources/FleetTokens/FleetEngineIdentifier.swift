/// The rules Fleet Engine applies to resource ids (vehicle, trip, delivery vehicle, task,
/// tracking id) and to the ids a token may name.
public enum FleetEngineIdentifier {
    /// The id that matches every resource; only server-side tokens may carry it.
    public static let wildcard = "*"

    /// The longest id Fleet Engine accepts, in characters.
    public static let maximumLength = 64

    /// Characters Fleet Engine forbids in ids (`/ : ? , #`), plus the wildcard `*`.
    static let forbiddenCharacters: Set<Character> = ["/", ":", "?", ",", "#", "*"]
    /// The same characters as bytes, for ids in printable ASCII.
    private static let forbiddenBytes = Set(forbiddenCharacters.compactMap(\.asciiValue))

    /// Why `id` is not a plain Fleet Engine id, or `nil` when it is one.
    ///
    /// A plain id is non-empty, at most 64 characters, has no control or white-space
    /// characters and none of `/ : ? , # *`. The wildcard `*` is not a plain id. Characters are
    /// Unicode code points, as JSON Schema counts them (the API documents state the same rule),
    /// so a combining mark neither hides a forbidden character nor escapes the count.
    public static func problem(with id: String) -> String? {
        if id.isEmpty { return "is empty" }
        // Nearly every id is printable ASCII, one byte per code point: there only a space or a
        // forbidden byte can be at fault, and only that byte needs the Unicode check.
        let isPrintableASCII = id.utf8.allSatisfy { (0x20...0x7E).contains($0) }
        if (isPrintableASCII ? id.utf8.count : id.unicodeScalars.count) > maximumLength {
            return "is longer than \(maximumLength) characters"
        }
        if isPrintableASCII {
            return id.utf8.first { $0 == UInt8(ascii: " ") || forbiddenBytes.contains($0) }
                .flatMap { problem(with: Unicode.Scalar($0)) }
        }
        return id.unicodeScalars.lazy.compactMap(problem(with:)).first
    }

    /// Why `scalar` may not be in an id, or `nil` when it may.
    private static func problem(with scalar: Unicode.Scalar) -> String? {
        if forbiddenCharacters.contains(Character(scalar)) { return "contains '\(scalar)'" }
        if scalar.properties.isWhitespace || scalar.properties.generalCategory == .control {
            return "contains white space or a control character"
        }
        return nil
    }

    /// Whether `id` is a plain Fleet Engine id (see ``problem(with:)``).
    public static func isPlain(_ id: String) -> Bool {
        problem(with: id) == nil
    }
}
