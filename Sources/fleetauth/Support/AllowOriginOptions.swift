import ArgumentParser
import FleetAuthServerHTTP

/// `--allow-origin ORIGIN`: the web origins whose pages may log in to the token server and get
/// tokens from it (CORS).
struct AllowOriginOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Let pages of this origin log in and get tokens from the browser (repeatable).",
            discussion:
                "E.g. https://rider.example.com, or http://localhost:* for any port. Never *: these routes take credentials. The admin routes never answer other origins.",
            valueName: "origin"
        ))
    var allowOrigin: [String] = []

    /// The origins given; a value that is not one is a usage error naming it.
    func allowedOrigins() throws -> AllowedOrigins {
        do {
            return try AllowedOrigins(parsing: allowOrigin)
        } catch {
            throw ValidationError("--allow-origin: \(error)")
        }
    }
}
