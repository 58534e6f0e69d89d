import Foundation

/// Why the JSON reader stopped: bad syntax, or a value of the wrong type.
package enum JSONReadError: Error, Equatable {
    /// The bytes are not JSON (what is wrong, in words).
    case syntax(String)
    /// A value is not of the type the field needs (`a string`, `an array of strings`, …);
    /// `field` is the member's dotted path (`authorization.vehicleid`), empty for the document.
    case wrongType(expected: String, field: String = "")

    /// An object names a member twice (after unescaping): a second `alg` or `password` must
    /// never override the first in one reader and not in another.
    package static let duplicateKey = JSONReadError.syntax("an object has a key twice")

    /// This error as seen from the object holding member `key`.
    fileprivate func within(_ key: String) -> JSONReadError {
        guard case .wrongType(let expected, let field) = self else { return self }
        return .wrongType(expected: expected, field: field.isEmpty ? key : "\(key).\(field)")
    }
}

/// A strict, forward-only reader over small JSON objects: a token's header and payload, and
/// the shape of the servers' strict request bodies.
///
/// Its users read only the members they need, straight into their types, and skip (while
/// still checking the syntax of) everything else: no intermediate tree and no `Codable`
/// machinery on the hot path. It follows RFC 8259 strictly: no trailing commas, no comments,
/// no leading zeros, control characters only escaped, and strings must be valid UTF-8.
package struct JSONCursor: ~Copyable {
    /// How deeply unknown members may nest before the reader gives up.
    static let maximumDepth = 32

    private let bytes: UnsafeRawBufferPointer
    private var index = 0

    /// Reads `bytes`, which must stay valid while the cursor is used.
    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Runs `body` with a cursor over `data`.
    package static func read(_ data: Data, _ body: (inout JSONCursor) throws(JSONReadError) -> Void)
        throws(JSONReadError)
    {
        let result: Result<Void, JSONReadError> = data.withUnsafeBytes { raw in
            Result { () throws(JSONReadError) in try read(raw, body) }
        }
        try result.get()
    }

    /// Runs `body` with a cursor over `bytes`.
    package static func read(_ bytes: UnsafeRawBufferPointer, _ body: (inout JSONCursor) throws(JSONReadError) -> Void)
        throws(JSONReadError)
    {
        var cursor = JSONCursor(bytes)
        try body(&cursor)
    }

    /// Reads a whole document that is one object, calling `member` with each key; `member`
    /// must read or skip the value. Duplicate keys are refused (a second `alg` or `vehicleid`
    /// must never override the first in one reader and not in another).
    package mutating func readDocumentObject(_ member: (inout JSONCursor, String) throws(JSONReadError) -> Void)
        throws(JSONReadError)
    {
        try readObject(member)
        skipWhitespace()
        guard index == bytes.count else { throw .syntax("unexpected bytes after the object") }
    }

    /// Reads an object, calling `member` with each key; refuses duplicate keys.
    package mutating func readObject(_ member: (inout JSONCursor, String) throws(JSONReadError) -> Void)
        throws(JSONReadError)
    {
        skipWhitespace()
        guard peek() == UInt8(ascii: "{") else { throw .wrongType(expected: "an object") }
        index += 1
        // Objects in honest tokens are small, where a list beats a hash set; past a few keys
        // (a token nobody has verified yet may carry hundreds) a set keeps the check linear.
        var seenFew: [String] = []
        var seenMany: Set<String> = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            let key = try readStringLiteral()
            // The key itself stays out of the message: it is unverified input that may be logged.
            if seenMany.isEmpty, seenFew.count < 16 {
                guard !seenFew.contains(key) else { throw .duplicateKey }
                seenFew.append(key)
            } else {
                if seenMany.isEmpty { seenMany = Set(seenFew) }
                guard seenMany.insert(key).inserted else { throw .duplicateKey }
            }
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            do {
                try member(&self, key)
            } catch {
                throw error.within(key)
            }
            skipWhitespace()
            switch next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return
            default: throw .syntax("expected ',' or '}' in an object")
            }
        }
    }

    /// Consumes `null` if it comes next; returns whether it did.
    package mutating func readNull() -> Bool {
        skipWhitespace()
        guard bytes.count - index >= 4, peek() == UInt8(ascii: "n") else { return false }
        guard bytes[index + 1] == UInt8(ascii: "u"), bytes[index + 2] == UInt8(ascii: "l"),
            bytes[index + 3] == UInt8(ascii: "l")
        else { return false }
        index += 4
        return true
    }

    /// Reads a string value.
    package mutating func readString() throws(JSONReadError) -> String {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw .wrongType(expected: "a string") }
        return try readStringLiteral()
    }

    /// Reads an array, calling `element` once for each element; `element` must read or skip it.
    package mutating func readArray(_ element: (inout JSONCursor) throws(JSONReadError) -> Void) throws(JSONReadError) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "[") else { throw .wrongType(expected: "an array") }
        index += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            try element(&self)
            skipWhitespace()
            switch next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return
            default: throw .syntax("expected ',' or ']' in an array")
            }
        }
    }

    /// Reads an array of strings.
    package mutating func readStringArray() throws(JSONReadError) -> [String] {
        var values: [String] = []
        do {
            try readArray { (cursor) throws(JSONReadError) in values.append(try cursor.readString()) }
        } catch .wrongType {
            throw .wrongType(expected: "an array of strings")
        }
        return values
    }

    /// Reads a number value, refusing one that a `Double` cannot hold as written: so large that
    /// it would be infinite, or so small that it would be zero (as Foundation's `JSONDecoder`
    /// does).
    package mutating func readNumber() throws(JSONReadError) -> Double {
        skipWhitespace()
        guard let first = peek(), first == UInt8(ascii: "-") || isDigit(first) else {
            throw .wrongType(expected: "a number")
        }
        let start = index
        let value = try readNumberLiteral()
        let mantissa = UnsafeRawBufferPointer(rebasing: bytes[start..<index]).prefix {
            $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E")
        }
        let writtenAsZero = !mantissa.contains { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }
        guard value.isFinite, value != 0 || writtenAsZero else {
            throw .wrongType(expected: "a number a Double can hold")
        }
        return value
    }

    /// Reads a number written as a whole number (no fraction, no exponent) that fits in `Int`.
    package mutating func readInteger() throws(JSONReadError) -> Int {
        skipWhitespace()
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw .wrongType(expected: "a whole number") }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if let byte = peek(), byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            throw .wrongType(expected: "a whole number")
        }
        let literal = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
        guard let value = Int(String(decoding: literal, as: UTF8.self)) else {
            throw .wrongType(expected: "a whole number")
        }
        return value
    }

    /// Reads `true` or `false`.
    package mutating func readBool() throws(JSONReadError) -> Bool {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "t"):
            try expectWord("true")
            return true
        case UInt8(ascii: "f"):
            try expectWord("false")
            return false
        default:
            throw .wrongType(expected: "true or false")
        }
    }

    /// Whether the next value is a string (without consuming it).
    package mutating func nextIsString() -> Bool {
        skipWhitespace()
        return peek() == UInt8(ascii: "\"")
    }

    /// Reads a string, or `nil` for `null`.
    package mutating func readOptionalString() throws(JSONReadError) -> String? {
        readNull() ? nil : try readString()
    }

    /// Skips one value of any type, checking its syntax.
    package mutating func skipValue(depth: Int = 0) throws(JSONReadError) {
        guard depth < Self.maximumDepth else { throw .syntax("nested more than \(Self.maximumDepth) levels deep") }
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "\""):
            _ = try readStringLiteral()
        case UInt8(ascii: "{"):
            try readObject { (cursor, _) throws(JSONReadError) in try cursor.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            try readArray { (cursor) throws(JSONReadError) in try cursor.skipValue(depth: depth + 1) }
        case UInt8(ascii: "t"): try expectWord("true")
        case UInt8(ascii: "f"): try expectWord("false")
        case UInt8(ascii: "n"): try expectWord("null")
        case .some(let byte) where byte == UInt8(ascii: "-") || isDigit(byte):
            _ = try readNumberLiteral()
        default:
            throw .syntax("expected a value")
        }
    }

    // MARK: - Literals

    private mutating func readStringLiteral() throws(JSONReadError) -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        var isASCII = true
        // Fast path: no escapes, the common case for every claim.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let literal = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                // ASCII needs no validation; anything else must be valid UTF-8.
                if isASCII { return String(decoding: literal, as: UTF8.self) }
                return try Self.validUTF8(literal)
            }
            isASCII = isASCII && byte < 0x80
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw .syntax("a control character in a string must be escaped") }
            index += 1
        }
        return try readEscapedString(from: start)
    }

    /// `bytes` as text, refused unless they are valid UTF-8. The standard library's validating
    /// initializer is new in macOS 15 and iOS 18; the app-side libraries run on iOS 17.
    private static func validUTF8(_ bytes: some Sequence<UInt8>) throws(JSONReadError) -> String {
        let text: String?
        if #available(macOS 15.0, iOS 18.0, *) {
            text = String(validating: bytes, as: UTF8.self)
        } else {
            text = String(bytes: bytes, encoding: .utf8)
        }
        guard let text else { throw .syntax("a string is not valid UTF-8") }
        return text
    }

    private mutating func readEscapedString(from start: Int) throws(JSONReadError) -> String {
        index = start
        var utf8: [UInt8] = []
        while true {
            guard let byte = next() else { throw .syntax("a string is not closed") }
            switch byte {
            case UInt8(ascii: "\""):
                return try Self.validUTF8(utf8)
            case UInt8(ascii: "\\"):
                try appendEscape(to: &utf8)
            case 0..<0x20:
                throw .syntax("a control character in a string must be escaped")
            default:
                utf8.append(byte)
            }
        }
    }

    private mutating func appendEscape(to utf8: inout [UInt8]) throws(JSONReadError) {
        switch next() {
        case UInt8(ascii: "\""): utf8.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): utf8.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): utf8.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHexQuad()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard next() == UInt8(ascii: "\\"), next() == UInt8(ascii: "u") else {
                    throw .syntax("a lone surrogate in a string")
                }
                let low = try readHexQuad()
                guard (0xDC00..<0xE000).contains(low) else { throw .syntax("a lone surrogate in a string") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw .syntax("a lone surrogate in a string") }
            utf8.append(contentsOf: String(Character(unicode)).utf8)
        default:
            throw .syntax("an unknown escape in a string")
        }
    }

    private mutating func readHexQuad() throws(JSONReadError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = next() else { throw .syntax("a \\u escape is cut short") }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw .syntax("a \\u escape needs four hex digits")
            }
            value = value << 4 | digit
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func readNumberLiteral() throws(JSONReadError) -> Double {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw .syntax("a number needs digits") }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let digit = peek(), isDigit(digit) else { throw .syntax("a number needs digits after '.'") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let digit = peek(), isDigit(digit) else { throw .syntax("a number needs digits in its exponent") }
            skipDigits()
        }
        let literal = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
        guard let value = Double(String(decoding: literal, as: UTF8.self)) else {
            throw .syntax("a number cannot be read")
        }
        return value
    }

    // MARK: - Bytes

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func next() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    private mutating func expect(_ byte: UInt8) throws(JSONReadError) {
        guard next() == byte else { throw .syntax("expected '\(Character(Unicode.Scalar(byte)))'") }
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONReadError) {
        for expected in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
            guard next() == expected else { throw .syntax("expected '\(word)'") }
        }
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { index += 1 }
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
