/// Stops the fuzzer when a property of the code under test does not hold, so that libFuzzer
/// saves the input that broke it (a `crash-…` file) as it does for any other crash.
public func require(
    _ property: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
) {
    guard !property else { return }
    fatalError("property failed: \(message())", file: file, line: line)
}

/// Whether `text` has `part` in it, character for character. Not Foundation's `contains(_:)`,
/// which on Linux stops reading `part` at its first NUL: there `"e\0\0…"` is "in" any text with
/// an `e`, and a refusal seems to quote a token it never quoted.
public func quotes(_ text: String, _ part: String) -> Bool {
    text.firstRange(of: part) != nil
}
