import Testing
@testable import FleetTokens

@Suite("Fleet Engine ids")
struct IdentifierTests {
    @Test("plain ids pass; each rule names its problem, for ASCII and other characters alike", arguments: [
        ("vehicle-42", nil),
        ("Fahrzeug-Größe", nil),
        ("", "is empty"),
        (String(repeating: "v", count: 64), nil),
        (String(repeating: "v", count: 65), "is longer than 64 characters"),
        (String(repeating: "ü", count: 65), "is longer than 64 characters"),
        ("a/b", "contains '/'"),
        ("ü:b", "contains ':'"),
        ("*", "contains '*'"),
        ("a b", "contains white space or a control character"),
        ("a\tb", "contains white space or a control character"),
        ("a\r\nb", "contains white space or a control character"),
        ("a\u{7F}", "contains white space or a control character"),
        ("a\u{00A0}b", "contains white space or a control character"),
        ("a\u{2028}b", "contains white space or a control character"),
    ] as [(String, String?)])
    func problems(id: String, problem: String?) {
        #expect(FleetEngineIdentifier.problem(with: id) == problem)
        #expect(FleetEngineIdentifier.isPlain(id) == (problem == nil))
    }

    @Test("a CR LF pair is one character: 64 of them with one CR LF is not too long, but refused for the control")
    func crlfCountsAsOneCharacter() {
        let id = String(repeating: "v", count: 62) + "\r\n" + "v"
        #expect(id.count == 64 && id.utf8.count == 65)
        #expect(FleetEngineIdentifier.problem(with: id) == "contains white space or a control character")
    }
}
