import Foundation

/// What Foundation's own JSON reader makes of the same bytes: the reference the project's fast
/// readers are held to.
public enum FoundationJSON {
    /// The document in `data` as Foundation reads it, or `nil` when Foundation refuses it.
    public static func value(of data: Data) -> Any? {
        try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }

    /// The document in `data` when Foundation reads it as an object.
    public static func object(of data: Data) -> [String: Any]? {
        value(of: data) as? [String: Any]
    }

    /// `value` as a string, when Foundation read a string.
    public static func string(_ value: Any?) -> String? {
        value as? String
    }

    /// `value` as a number, when Foundation read one (its booleans are numbers too).
    public static func number(_ value: Any?) -> Double? {
        (value as? NSNumber)?.doubleValue
    }

    /// Whether Foundation read JSON `null`.
    public static func isNull(_ value: Any?) -> Bool {
        value is NSNull
    }
}
