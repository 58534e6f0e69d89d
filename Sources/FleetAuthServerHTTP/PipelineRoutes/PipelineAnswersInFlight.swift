import FleetAuthLocking

/// The answers a server's ``PipelineRoute`` is computing, so that the server can wait for them
/// before it closes what they use (its database): they run in tasks of their own, outside the
/// task group that Hummingbird waits for on shutdown.
package final class PipelineAnswersInFlight: Sendable {
    private let answers = InFlight()

    /// No answer in flight yet.
    package init() {}

    /// Runs `answer`, counted as in flight until it returns.
    func run<Result>(_ answer: () async -> Result) async -> Result {
        // Never closed: a server waits for its answers, it does not refuse them.
        _ = answers.enter()
        defer { answers.leave() }
        return await answer()
    }

    /// Returns once no answer is in flight.
    package func drained() async {
        await answers.drained()
    }
}
