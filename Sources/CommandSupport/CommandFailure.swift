/// An error a command reports to the user as one clear line before exiting non-zero.
package struct CommandFailure: Error, CustomStringConvertible {
    /// What went wrong, in words.
    package let description: String

    /// A failure saying `description`.
    package init(_ description: String) {
        self.description = description
    }
}
