import FleetAuthServerHTTP
import Foundation
import NIOPosix
import Testing

@Suite("Event loop task executor")
struct EventLoopTaskExecutorTests {
    /// Whether the calling thread is one of NIO's event loops.
    static func onEventLoop() -> Bool {
        MultiThreadedEventLoopGroup.currentEventLoop != nil
    }

    /// Suspends until a thread outside every event loop and the cooperative pool resumes it,
    /// as a thread pool finishing SQLite or bcrypt work does.
    static func resumedFromAnotherThread() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread { continuation.resume() }
        }
    }

    @Test(
        "a task that prefers it runs on an event loop, also after a resumption from another thread and in its child tasks"
    )
    func runsOnEventLoops() async {
        #expect(!Self.onEventLoop(), "a plain task runs on the cooperative pool")
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let seen = await withTaskExecutorPreference(EventLoopTaskExecutor(group: group)) {
            var seen = [Self.onEventLoop()]
            await Self.resumedFromAnotherThread()
            seen.append(Self.onEventLoop())
            let children = await withTaskGroup(of: Bool.self) { children in
                for _ in 0..<8 {
                    children.addTask {
                        await Self.resumedFromAnotherThread()
                        return Self.onEventLoop()
                    }
                }
                return await children.reduce(into: [Bool]()) { $0.append($1) }
            }
            return seen + children
        }
        #expect(seen == Array(repeating: true, count: 10))
        #expect(!Self.onEventLoop(), "the preference ends with its closure")
        try? await group.shutdownGracefully()
    }

    @Test("jobs enqueued on an event loop's thread stay on that loop")
    func staysOnTheCurrentLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let executor = EventLoopTaskExecutor(group: group)
        for loop in group.makeIterator() {
            let stayed = try await loop.submit {
                // A task started on the loop's thread with the preference begins on this loop.
                Task(executorPreference: executor) { MultiThreadedEventLoopGroup.currentEventLoop === loop }
            }.get().value
            #expect(stayed)
        }
        try await group.shutdownGracefully()
    }
}
