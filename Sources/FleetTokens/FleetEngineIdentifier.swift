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
    /// characters and none of `/ : ? , # *`. The wildcard `*` is not a plain id.
    public static func problem(with id: String) -> String? {
        if id.isEmpty { return "is empty" }
        // Nearly every id is printable ASCII, one byte per character: there only a space or a
        // forbidden byte can be at fault, and only that character needs the Unicode check.
        let isPrintableASCII = id.utf8.allSatisfy { (0x20...0x7E).contains($0) }
        if (isPrintableASCII ? id.utf8.count : id.count) > maximumLength { return "is longer than \(maximumLength) characters" }
        if isPrintableASCII {
            return id.utf8.first { $0 == UInt8(ascii: " ") || forbiddenBytes.contains($0) }
                .flatMap { problem(with: Character(Unicode.Scalar($0))) }
        }
        return id.lazy.compactMap(problem(with:)).first
    }

    /// Why `character` may not be in an id, or `nil` when it may.
    private static func problem(with character: Character) -> String? {
        if forbiddenCharacters.contains(character) { return "contains '\(character)'" }
        if character.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) {
            return "contains white space or a control character"
        }
        return nil
    }

    /// Whether `id` is a plain Fleet Engine id (see ``problem(with:)``).
    public static func isPlain(_ id: String) -> Bool {
        problem(with: id) == nil
    }
}
