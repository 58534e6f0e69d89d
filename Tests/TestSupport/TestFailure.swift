/// A failure of a test's set-up, in words.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String

    /// A failure saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
