import NIOCore
import NIOPosix

/// A task executor that runs Swift concurrency jobs on NIO's event loops: a job enqueued on an
/// event loop's thread runs on that loop, any other job on the next loop of `group`.
///
/// A server whose tasks prefer it (`withTaskExecutorPreference`) handles each request on the
/// loop that read it and writes the answer from there, instead of hopping to the cooperative
/// pool and back for every request (two thread wake-ups and context switches each way). Work
/// that blocks — bcrypt, SQLite — must still go to a thread pool of its own, as it does.
package final class EventLoopTaskExecutor: TaskExecutor {
    private let group: MultiThreadedEventLoopGroup

    /// An executor over `group`'s loops (NIO's shared group, which Hummingbird serves on, by
    /// default).
    package init(group: MultiThreadedEventLoopGroup = .singleton) {
        self.group = group
    }

    /// Runs `job` on the current thread's event loop after the work it is doing, or on the
    /// group's next loop when called from any other thread.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let loop = MultiThreadedEventLoopGroup.currentEventLoop ?? group.next()
        loop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
