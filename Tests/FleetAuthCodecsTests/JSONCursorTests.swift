import FleetAuthCodecs
import Foundation
import Testing

/// The cursor itself; what the token reader makes of it is tested with the claims
/// (FleetTokensTests), what the servers' strict bodies make of it with them (FleetAuthServerHTTPTests).
@Suite("The strict forward-only JSON reader")
struct JSONCursorTests {
    /// Reads `json` as one object whose every member is skipped, returning the names in order.
    func memberNames(_ json: String) throws(JSONReadError) -> [String] {
        var names: [String] = []
        try JSONCursor.read(Data(json.utf8)) { (cursor) throws(JSONReadError) in
            try cursor.readDocumentObject { (cursor, name) throws(JSONReadError) in
                names.append(name)
                try cursor.skipValue()
            }
        }
        return names
    }

    /// FuzzJSONReaders compares every value with Foundation's; there, an integer beyond 64 bits
    /// came out an ulp apart, Foundation going through Decimal: the cursor's is `Double`'s own
    /// correctly rounded reading.
    @Test("arrays hand over each element; a number beyond 64 bits is read as Double reads it")
    func arraysAndLongNumbers() throws {
        var numbers: [Double] = []
        try JSONCursor.read(Data("[1, -0.5e-3, 123456789002345678901234567890]".utf8)) {
            (cursor) throws(JSONReadError) in
            try cursor.readArray { (cursor) throws(JSONReadError) in numbers.append(try cursor.readNumber()) }
        }
        #expect(numbers == [1, -0.5e-3, try #require(Double("123456789002345678901234567890"))])
    }

    @Test(
        "a member named twice is refused at any depth, also when skipped, also when escaped",
        arguments: [
            #"{"a":1,"a":2}"#, #"{"a":1,"\u0061":2}"#, #"{"x":{"b":[{"c":1,"c":1}]}}"#,
            #"{"x":[[{"k":{"k":1,"k":2}}]]}"#,
        ])
    func duplicates(json: String) {
        #expect(throws: JSONReadError.duplicateKey) { try memberNames(json) }
    }

    @Test("the same name in different objects, or as a value, is no duplicate")
    func sameNameElsewhere() throws {
        #expect(try memberNames(#"{"a":{"x":"x"},"b":[{"x":1},{"x":2}],"x":"a\":"}"#) == ["a", "b", "x"])
    }

    @Test(
        "null is taken only where it is",
        arguments: [("null", true), ("nul", false), ("\"null\"", false), ("0", false)])
    func null(text: String, isNull: Bool) throws {
        var read: Bool?
        try? JSONCursor.read(Data(text.utf8)) { (cursor) throws(JSONReadError) in read = cursor.readNull() }
        #expect(read == isNull)
    }

    @Test(
        "what Foundation's decoder lets pass is refused: trailing commas, leading zeros, bytes after the object",
        arguments: [
            #"{"a":1,}"#, #"{"a":[1,]}"#, #"{"a":01}"#, #"{"a":1} x"#, #"{"a":"\u12"}"#,
        ])
    func strictSyntax(json: String) {
        #expect(throws: JSONReadError.self) { try memberNames(json) }
    }

    @Test(
        "a document that is not an object is the document's wrong type, not a syntax error",
        arguments: ["[1]", "\"x\"", "7"])
    func notAnObject(json: String) {
        #expect(throws: JSONReadError.wrongType(expected: "an object")) { try memberNames(json) }
    }
}
