import ArgumentParser

/// An error a command reports to the user as one clear line before exiting non-zero.
struct CommandFailure: Error, CustomStringConvertible {
    /// What went wrong, in words.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
