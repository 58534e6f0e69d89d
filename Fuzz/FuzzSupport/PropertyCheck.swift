/// Stops the fuzzer when a property of the code under test does not hold, so that libFuzzer
/// saves the input that broke it (a `crash-…` file) as it does for any other crash.
public func require(_ property: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    guard !property else { return }
    fatalError("property failed: \(message())", file: file, line: line)
}
