import FleetAuthCodecs
import Foundation
import FuzzSupport

/// The JSON readers against Foundation's:
/// - a document ``JSONCursor`` accepts (read whole, every value into a tree) is one Foundation
///   reads too, with the same values;
/// - any text written by ``JSONString`` reads back, through Foundation and through
///   ``JSONCursor``, as the same text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONReaders(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: start, count: count)
    if let document = CursorTree.document(in: input) {
        let foundation = FoundationJSON.value(of: Data(input))
        require(foundation != nil, "JSONCursor accepted a document Foundation refuses")
        require(document.matches(foundation), "JSONCursor and Foundation read different values")
    }

    let text = String(decoding: input, as: UTF8.self)
    var literal: [UInt8] = []
    JSONString.append(text, to: &literal)
    require(
        FoundationJSON.string(FoundationJSON.value(of: Data(literal))) == text,
        "Foundation reads JSONString's literal as other text")
    let cursorText = literal.withUnsafeBytes { bytes in
        var read: String?
        try? JSONCursor.read(bytes) { (cursor) throws(JSONReadError) in read = try cursor.readString() }
        return read
    }
    require(cursorText == text, "JSONCursor reads JSONString's literal as other text")
    return 0
}

/// A JSON value as ``JSONCursor`` read it.
private indirect enum CursorTree {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([CursorTree])
    case object([String: CursorTree])

    /// The whole document (an object, as every reader of the project takes), or `nil` when
    /// the cursor refuses it.
    static func document(in bytes: UnsafeRawBufferPointer) -> CursorTree? {
        var members: [String: CursorTree] = [:]
        do throws(JSONReadError) {
            try JSONCursor.read(bytes) { (cursor) throws(JSONReadError) in
                try cursor.readDocumentObject { (cursor, key) throws(JSONReadError) in
                    members[key] = try read(&cursor, depth: 1)
                }
            }
        } catch {
            return nil
        }
        return .object(members)
    }

    /// The next value, of whichever type it is. Each typed read refuses a value of another
    /// type before consuming it, except a number read, which therefore comes last.
    private static func read(_ cursor: inout JSONCursor, depth: Int) throws(JSONReadError) -> CursorTree {
        guard depth < 64 else { throw .syntax("deep") }
        if cursor.readNull() { return .null }
        do { return .bool(try cursor.readBool()) } catch .wrongType {}
        do { return .string(try cursor.readString()) } catch .wrongType {}
        do {
            var members: [String: CursorTree] = [:]
            try cursor.readObject { (cursor, key) throws(JSONReadError) in
                members[key] = try readInside(&cursor, depth: depth + 1)
            }
            return .object(members)
        } catch .wrongType {}
        do {
            var elements: [CursorTree] = []
            try cursor.readArray { (cursor) throws(JSONReadError) in
                elements.append(try readInside(&cursor, depth: depth + 1))
            }
            return .array(elements)
        } catch .wrongType {}
        return .number(try cursor.readNumber())
    }

    /// A value inside an object or array. A wrong type in there refuses the document: let
    /// through as it is, it would look to `read` like a container of another type, and `read`
    /// would go on with the next type from wherever the cursor stopped.
    private static func readInside(_ cursor: inout JSONCursor, depth: Int) throws(JSONReadError) -> CursorTree {
        do {
            return try read(&cursor, depth: depth)
        } catch .wrongType(let expected, _) {
            throw .syntax("inside a container: \(expected)")
        }
    }

    /// Whether Foundation's reading of the same value is this one.
    func matches(_ foundation: Any?) -> Bool {
        switch self {
        case .null:
            return FoundationJSON.isNull(foundation)
        case .bool(let value):
            return (foundation as? Bool) == value
        case .number(let value):
            guard let other = FoundationJSON.number(foundation) else { return false }
            // Foundation keeps an integer beyond 64 bits as a Decimal (38 digits), whose Double
            // may be several ulps from the correctly rounded one JSONCursor reads.
            guard foundation is NSDecimalNumber else { return other == value }
            return abs(other - value) <= abs(value) * 1e-14
        case .string(let value):
            return FoundationJSON.string(foundation) == value
        case .array(let elements):
            guard let others = foundation as? [Any], others.count == elements.count else { return false }
            return zip(elements, others).allSatisfy { $0.matches($1) }
        case .object(let members):
            guard let others = foundation as? [String: Any], others.count == members.count else { return false }
            return members.allSatisfy { key, value in others[key].map { value.matches($0) } ?? false }
        }
    }
}
