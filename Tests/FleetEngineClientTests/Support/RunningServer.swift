import Foundation
import Logging
import ServiceLifecycle
import TestSupport

/// A server running in a service group of its own on a fixed loopback port (a free one picked
/// at the first start), which a test stops and starts again to play an outage.
actor RunningServer {
    /// Opens what the server needs, hands its service (listening on `port`, calling
    /// `onStarted` with the port once it does) to `serve`, and closes what it opened when
    /// `serve` returns.
    typealias Launch = @Sendable (
        _ port: Int,
        _ onStarted: @escaping @Sendable (Int) async -> Void,
        _ serve: @Sendable (any Service) async throws -> Void
    ) async throws -> Void

    private let name: String
    private let launch: Launch
    private var task: Task<Void, Never>?
    private var group: ServiceGroup?
    /// The port; 0 until the first start.
    private(set) var port = 0

    init(_ name: String, launch: @escaping Launch) {
        self.name = name
        self.launch = launch
    }

    /// Starts the server and waits (up to 30 s) until it listens.
    func start() async throws {
        precondition(task == nil, "\(name) is already running")
        let (ports, sink) = AsyncStream.makeStream(of: Int.self)
        let launch = launch, port = port, name = name
        task = Task {
            do {
                try await launch(port, { sink.yield($0) }) { service in
                    let group = ServiceGroup(services: [service], logger: Logger(label: name) { _ in SwiftLogNoOpLogHandler() })
                    await self.running(group)
                    try await group.run()
                }
            } catch {
                print("\(name) ended: \(error)")
            }
            sink.finish()
        }
        let started = try await withThrowingTaskGroup(of: Int?.self) { group in
            group.addTask { await ports.first { _ in true } }
            group.addTask {
                try await Task.sleep(for: .seconds(30))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard let started else { throw TestFailure("\(name) did not start") }
        self.port = started
    }

    /// Shuts the server down gracefully (it stops listening, finishes the requests in
    /// flight and closes its connections) and waits until it has.
    func stop() async {
        await group?.triggerGracefulShutdown()
        await task?.value
        task = nil
        group = nil
    }

    private func running(_ group: ServiceGroup) {
        self.group = group
    }
}
