import Testing

@testable import FleetTokens

@Suite("Fleet Engine ids")
struct IdentifierTests {
    @Test(
        "plain ids pass; each rule names its problem, for ASCII and other characters alike",
        arguments: [
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

    @Test(
        "characters are code points, as JSON Schema counts them: combining marks count, and hide no forbidden character"
    )
    func codePointsAreCounted() {
        let accented = String(repeating: "e\u{0301}", count: 33)
        #expect(accented.count == 33 && accented.unicodeScalars.count == 66)
        #expect(FleetEngineIdentifier.problem(with: accented) == "is longer than 64 characters")
        #expect(FleetEngineIdentifier.problem(with: "a/\u{0301}b") == "contains '/'")
        #expect(FleetEngineIdentifier.problem(with: "v\r\nv") == "contains white space or a control character")
    }
}
