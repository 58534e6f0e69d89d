/// Why a database could not be opened or used; its message never contains a password.
public struct DatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in words.
    public let description: String

    /// An error with the given message.
    public init(_ description: String) {
        self.description = description
    }
}
