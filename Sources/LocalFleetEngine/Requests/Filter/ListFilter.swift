/// A list method's `filter`, in the part of AIP-160's syntax the delivery lists take:
/// comparisons `field = value` and `field != value`, joined by `AND` (or plain juxtaposition),
/// `OR` (which binds tighter than `AND`, as AIP-160 says), `NOT` or `-`, and parentheses.
/// Values are bare words or numbers, or strings in double or single quotes.
///
/// A filter is parsed against the fields a list can answer, so that one the engine cannot
/// answer is refused (400, naming the part), never silently ignored. A filter holds at most
/// ``maximumComparisons`` comparisons (Google's limit for delivery vehicle filters) and nests
/// `NOT`, `-` and parentheses at most ``maximumDepth`` deep.
package indirect enum ListFilter: Equatable, Sendable, CustomStringConvertible {
    /// `field = value` (`isEqual`) or `field != value`.
    case comparison(field: String, isEqual: Bool, value: String)
    /// Both.
    case and(ListFilter, ListFilter)
    /// Either.
    case or(ListFilter, ListFilter)
    /// Not.
    case not(ListFilter)

    /// The filter in the syntax it is parsed from, every value quoted and parentheses only where
    /// the grammar needs them: parsed again, it is the same filter, and it nests no deeper than
    /// any text that parses to it (so a filter within ``maximumDepth`` stays within it).
    package var description: String {
        switch self {
        case .comparison(let field, let isEqual, let value):
            "\(field) \(isEqual ? "=" : "!=") \(Self.quoted(value))"
        case .and(let left, let right):
            // AND groups to the left, and OR binds tighter: only an AND on the right needs parentheses.
            "\(left) AND \(right.parenthesized(if: right.isAnd))"
        case .or(let left, let right):
            "\(left.parenthesized(if: left.isAnd)) OR \(right.parenthesized(if: right.isAnd || right.isOr))"
        case .not(let inner):
            "NOT \(inner.parenthesized(if: inner.isAnd || inner.isOr))"
        }
    }

    /// `value` in double quotes, with a backslash before each quote and backslash in it. Done
    /// scalar by scalar: a quote followed by a combining mark is one `Character`, which a
    /// search for the character `"` does not find, but the scanner reads it as a quote.
    private static func quoted(_ value: String) -> String {
        var written = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { written.append("\\") }
            written.append(scalar)
        }
        return "\"\(String(written))\""
    }

    private var isAnd: Bool { if case .and = self { true } else { false } }
    private var isOr: Bool { if case .or = self { true } else { false } }

    private func parenthesized(if needed: Bool) -> String { needed ? "(\(self))" : description }

    /// Whether a resource whose field values `value` gives (`nil`: the field has none, which
    /// equals nothing, not even the empty string) passes the filter.
    package func matches(_ value: (String) -> String?) -> Bool {
        switch self {
        case .comparison(let field, let isEqual, let expected): (value(field) == expected) == isEqual
        case .and(let left, let right): left.matches(value) && right.matches(value)
        case .or(let left, let right): left.matches(value) || right.matches(value)
        case .not(let inner): !inner.matches(value)
        }
    }

    /// The fields the filter requires a value of at its top level (see ``requiredValue(of:)``).
    var requiredFields: [String] {
        switch self {
        case .comparison(let field, true, _): [field]
        case .and(let left, let right): left.requiredFields + right.requiredFields
        default: []
        }
    }

    /// The value `field` must equal for any resource to pass, when the filter says so at its
    /// top level (`field = value AND …`): what lets a list read an index instead of every resource.
    func requiredValue(of field: String) -> String? {
        switch self {
        case .comparison(let name, true, let value) where name == field: value
        case .and(let left, let right): left.requiredValue(of: field) ?? right.requiredValue(of: field)
        default: nil
        }
    }
}

extension ListFilter {
    /// The most comparisons a filter may hold.
    package static let maximumComparisons = 50
    /// The deepest a filter may nest `NOT`, `-` and parentheses.
    package static let maximumDepth = 50

    /// The filter `text` (`nil` when it is empty), checking every field it names with `field`,
    /// which returns why a field cannot be filtered on, or `nil` when it can.
    ///
    /// - Throws: ``InvalidArgument`` naming the part of `text` that does not parse or that
    ///   names a field `field` refuses.
    package static func parse(_ text: String, field: @escaping (String) -> String?) throws(InvalidArgument)
        -> ListFilter?
    {
        var parser = try FilterParser(text: text, fieldProblem: field)
        return try parser.parseWhole()
    }
}

/// A recursive-descent parser of ``ListFilter``'s grammar:
///
///     expression = term { ["AND"] term }
///     term       = factor { "OR" factor }
///     factor     = ("NOT" | "-") factor | "(" expression ")" | field ("=" | "!=") value
private struct FilterParser {
    private var tokens: [FilterToken]
    private var position = 0
    private var depth = 0
    private var comparisons = 0
    private let fieldProblem: (String) -> String?

    init(text: String, fieldProblem: @escaping (String) -> String?) throws(InvalidArgument) {
        self.tokens = try FilterToken.scan(text)
        self.fieldProblem = fieldProblem
    }

    mutating func parseWhole() throws(InvalidArgument) -> ListFilter? {
        guard !tokens.isEmpty else { return nil }
        let filter = try expression()
        if position < tokens.count { throw InvalidArgument("filter has '\(tokens[position])' where it should end") }
        return filter
    }

    private mutating func expression() throws(InvalidArgument) -> ListFilter {
        var filter = try term()
        while let token = peek(), token != .closing {
            if token == .word("AND") { position += 1 }
            filter = .and(filter, try term())
        }
        return filter
    }

    private mutating func term() throws(InvalidArgument) -> ListFilter {
        var filter = try factor()
        while peek() == .word("OR") {
            position += 1
            filter = .or(filter, try factor())
        }
        return filter
    }

    private mutating func factor() throws(InvalidArgument) -> ListFilter {
        depth += 1
        defer { depth -= 1 }
        guard depth <= ListFilter.maximumDepth else {
            throw InvalidArgument("filter nests NOT, - and parentheses more than \(ListFilter.maximumDepth) deep")
        }
        switch next() {
        case .word("NOT"), .minus:
            return .not(try factor())
        case .opening:
            let inner = try expression()
            guard next() == .closing else { throw InvalidArgument("filter has a '(' that is never closed") }
            return inner
        case .word(let field) where !["AND", "OR"].contains(field):
            if let problem = fieldProblem(field) { throw InvalidArgument("filter names \(field): \(problem)") }
            comparisons += 1
            guard comparisons <= ListFilter.maximumComparisons else {
                throw InvalidArgument("filter has more than \(ListFilter.maximumComparisons) comparisons")
            }
            let isEqual: Bool
            switch next() {
            case .equal: isEqual = true
            case .notEqual: isEqual = false
            case .comparison(let symbol):
                throw InvalidArgument(
                    "filter compares \(field) with '\(symbol)'; the local Fleet Engine answers only = and != here")
            case let other:
                throw InvalidArgument(
                    "filter has \(other.map { "'\($0)'" } ?? "nothing") after \(field), where = or != should be")
            }
            switch next() {
            case .word(let value), .quoted(let value): return .comparison(field: field, isEqual: isEqual, value: value)
            case let other:
                throw InvalidArgument(
                    "filter has \(other.map { "'\($0)'" } ?? "nothing") where the value of \(field) should be")
            }
        case let other:
            throw InvalidArgument(
                "filter has \(other.map { "'\($0)'" } ?? "nothing") where a comparison such as state = OPEN should be")
        }
    }

    private func peek() -> FilterToken? { position < tokens.count ? tokens[position] : nil }

    private mutating func next() -> FilterToken? {
        defer { position += 1 }
        return peek()
    }
}

/// A word of a filter.
private enum FilterToken: Equatable, CustomStringConvertible {
    case word(String), quoted(String), equal, notEqual, comparison(String), opening, closing, minus

    var description: String {
        switch self {
        case .word(let word): word
        case .quoted(let text): "\"\(text)\""
        case .equal: "="
        case .notEqual: "!="
        case .comparison(let symbol): symbol
        case .opening: "("
        case .closing: ")"
        case .minus: "-"
        }
    }

    /// The tokens of `text`, read scalar by scalar (a combining mark never merges with a quote
    /// or an operator); refuses an unclosed string or a character no token starts with.
    static func scan(_ text: String) throws(InvalidArgument) -> [FilterToken] {
        var tokens: [FilterToken] = []
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.first {
            if scalar.properties.isWhitespace {
                scalars.removeFirst()
            } else if scalar == "(" || scalar == ")" {
                tokens.append(scalar == "(" ? .opening : .closing)
                scalars.removeFirst()
            } else if scalar == "\"" || scalar == "'" {
                scalars.removeFirst()
                var value = String.UnicodeScalarView()
                while true {
                    guard let next = scalars.popFirst() else {
                        throw InvalidArgument("filter has a string that is never closed")
                    }
                    if next == scalar { break }
                    if next == "\\" {
                        guard let escaped = scalars.popFirst() else {
                            throw InvalidArgument("filter ends inside a string")
                        }
                        value.append(escaped)
                    } else {
                        value.append(next)
                    }
                }
                tokens.append(.quoted(String(value)))
            } else if "=!<>".unicodeScalars.contains(scalar) {
                var symbol = String(scalars.removeFirst())
                if scalars.first == "=" { symbol.unicodeScalars.append(scalars.removeFirst()) }
                switch symbol {
                case "=": tokens.append(.equal)
                case "!=": tokens.append(.notEqual)
                case "!": throw InvalidArgument("filter has '!' alone; write != or NOT")
                default: tokens.append(.comparison(symbol))
                }
            } else if scalar == "-", tokens.last.map(Self.endsOperand) != true {
                tokens.append(.minus)
                scalars.removeFirst()
            } else if Self.isWordScalar(scalar) {
                let word = scalars.prefix(while: Self.isWordScalar)
                scalars.removeFirst(word.count)
                tokens.append(.word(String(String.UnicodeScalarView(word))))
            } else {
                throw InvalidArgument(
                    "filter has '\(scalar.escaped(asASCII: true))', which no part of a filter starts with")
            }
        }
        return tokens
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            || "_.-:+*@".unicodeScalars.contains(scalar)
    }

    /// Whether a `-` after `token` starts a value (`x = -3`) rather than negating what follows.
    private static func endsOperand(_ token: FilterToken) -> Bool {
        switch token {
        case .equal, .notEqual, .comparison: true
        default: false
        }
    }
}
