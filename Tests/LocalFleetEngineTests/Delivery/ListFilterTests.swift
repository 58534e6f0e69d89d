import Testing

@testable import LocalFleetEngine

/// The AIP-160 filters of the delivery lists (``ListFilter``).
@Suite("List filter")
struct ListFilterTests {
    func parse(_ text: String) throws(InvalidArgument) -> ListFilter? {
        try ListFilter.parse(text) { ["a", "b", "c", "attributes.k"].contains($0) ? nil : "not a field here" }
    }

    @Test func orBindsTighterThanAndAndJuxtapositionIsAnd() throws {
        let a = ListFilter.comparison(field: "a", isEqual: true, value: "1")
        let b = ListFilter.comparison(field: "b", isEqual: true, value: "2")
        let c = ListFilter.comparison(field: "c", isEqual: false, value: "x y")
        #expect(try parse("a = 1 AND b = 2 OR c != \"x y\"") == .and(a, .or(b, c)))
        #expect(try parse("a=1 b=2") == .and(a, b))
        #expect(try parse("(a = 1 AND b = 2) OR c != 'x y'") == .or(.and(a, b), c))
        #expect(try parse("NOT a = 1") == .not(a))
        #expect(try parse("-a = 1") == .not(a))
        #expect(try parse("a = -1") == .comparison(field: "a", isEqual: true, value: "-1"))
        #expect(
            try parse("attributes.k = \"say \\\"hi\\\"\"")
                == .comparison(field: "attributes.k", isEqual: true, value: "say \"hi\""))
        #expect(try parse("   ") == nil)
    }

    @Test(arguments: [
        ("a = (1", "filter has '(' where the value of a should be"),
        ("(a = 1", "filter has a '(' that is never closed"),
        ("a < 1", "filter compares a with '<'; the local Fleet Engine answers only = and != here"),
        ("d = 1", "filter names d: not a field here"),
        ("a = \"open", "filter has a string that is never closed"),
        ("a = 1 AND", "filter has nothing where a comparison such as state = OPEN should be"),
        ("a = 1)", "filter has ')' where it should end"),
        ("a ! 1", "filter has '!' alone; write != or NOT"),
        ("a = 1 ; b = 2", "filter has ';', which no part of a filter starts with"),
        (String(repeating: "-", count: 8000) + "a = 1", "filter nests NOT, - and parentheses more than 50 deep"),
        (String(repeating: "(", count: 3000) + "a = 1", "filter nests NOT, - and parentheses more than 50 deep"),
        (Array(repeating: "a = 1", count: 51).joined(separator: " "), "filter has more than 50 comparisons"),
    ])
    func aFilterThatCannotBeAnsweredIsRefusedByName(text: String, refusal: String) {
        #expect(throws: InvalidArgument(refusal)) { try parse(text) }
    }

    @Test func matchingAndTheValueAnIndexCanAnswer() throws {
        let filter = try #require(try parse("a = 1 AND (b = 2 OR NOT c = 3)"))
        #expect(filter.matches { ["a": "1", "b": "9", "c": "4"][$0] })
        #expect(!filter.matches { ["a": "1", "b": "9", "c": "3"][$0] })
        #expect(!filter.matches { ["b": "2"][$0] })
        #expect(filter.requiredValue(of: "a") == "1")
        #expect(filter.requiredValue(of: "b") == nil)
        #expect(try parse("a = 1 OR b = 2")?.requiredValue(of: "a") == nil)
    }

    /// Found by `FuzzListFilter`: 44 negations parsed, but their written form, with a pair of
    /// parentheses round every operation, nested 89 deep and was refused.
    @Test(arguments: [
        String(repeating: "-", count: 37) + "\r" + String(repeating: "-", count: 8) + "a=c",
        String(repeating: "-", count: 46) + "(a = 1 OR b = 2 AND NOT c = 3)",
        Array(repeating: "a = 1", count: 50).joined(separator: " OR "),
        "(a = 1 AND b = 2) OR (a = 3 OR (b = 4 AND c = 5)) AND NOT (a = 6 OR b = 7) AND (b = 8 AND c = 9)",
        // Found by `FuzzListFilter` too: a quote followed by a combining mark (U+065C) is one
        // Character, and the written form left that quote unescaped, so the string never closed.
        #"_id = "-1" OR(Ne = OPEN AND type= "\"\#u{065C}dy")"#,
        #"a = "\\\#u{0301}" AND b = '\'\#u{0301}'"#,
    ])
    func aFilterWrittenOutParsesBackToItself(text: String) throws {
        let filter = try #require(try ListFilter.parse(text) { _ in nil })
        #expect(try ListFilter.parse(filter.description) { _ in nil } == filter)
    }
}
