import ArgumentParser
import TokenServer

/// What the token server allows of token requests and keeps of them: `--token-requests-per-minute`
/// and the record (`--no-record`, `--record-buffer`, `--record-retention`), for `token-server`
/// and `serve`.
struct TokenRequestOptions: ParsableArguments {
    @Option(help: "Token requests each session may make a minute; more get 429 with Retry-After (0: no limit).")
    var tokenRequestsPerMinute = 60

    @Flag(help: "Keep no record of token requests (GET /v1/admin/issued-tokens, fleetauth audit).")
    var noRecord = false

    @Option(
        help: ArgumentHelp(
            "Records that may wait in memory while the database refuses writes; beyond them token requests get 503.",
            valueName: "records"))
    var recordBuffer = 100_000

    @Option(help: ArgumentHelp("Days the record of token requests is kept.", valueName: "days"))
    var recordRetention = 30

    func validate() throws {
        guard tokenRequestsPerMinute >= 0 else {
            throw ValidationError("--token-requests-per-minute must be 0 (no limit) or more")
        }
        guard recordBuffer >= 1 else { throw ValidationError("--record-buffer must be at least 1") }
        guard (1...36_500).contains(recordRetention) else {
            throw ValidationError("--record-retention must be 1 to 36500 days")
        }
    }

    /// The record's settings.
    var record: TokenRecorder.Settings {
        TokenRecorder.Settings(
            isOn: !noRecord, bufferLimit: recordBuffer, retention: .seconds(Int64(recordRetention) * 86_400))
    }
}
