import ArgumentParser

/// How signing keys rotate, for `token-server` and `serve`: `--key-overlap`.
struct SigningKeyOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "How long a replaced signing key stays published after its last token expired, for replicas that signed with it until they heard of the rotation.",
            valueName: "seconds"))
    var keyOverlap = 60

    func validate() throws {
        guard (0...3600).contains(keyOverlap) else { throw ValidationError("--key-overlap must be 0 to 3600 seconds") }
    }

    /// The overlap.
    var overlap: Duration { .seconds(keyOverlap) }
}
