/// Why a key file or another secret file could not be read, made or written. Messages name
/// the file and the field and never contain key material.
public struct KeyFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file involved, or `<memory>` for keys read from bytes.
    public var file: String
    /// What is wrong, in words.
    public var problem: String

    /// Creates an error about `file`.
    public init(file: String, problem: String) {
        self.file = file
        self.problem = problem
    }

    public var description: String { "\(file): \(problem)" }
}
