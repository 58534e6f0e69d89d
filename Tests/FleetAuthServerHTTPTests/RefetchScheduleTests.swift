import FleetAuthLocking
import FleetAuthServerHTTP
import Foundation
import TestSupport
import Testing

/// One fetch at a time, shared by the callers who ask meanwhile, at most one per interval, and
/// a wait for the next slot only for those who ask for it.
@Suite("Refetch schedule")
struct RefetchScheduleTests {
    /// How many fetches ran.
    final class Counter: Sendable {
        private let count = Locked(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }

    @Test func callersDuringAFetchShareIt() async {
        let fetches = Counter()
        let schedule = RefetchSchedule(minimumInterval: .seconds(10))
        let made = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    await schedule.run {
                        fetches.add()
                        try? await Task.sleep(for: .milliseconds(200))
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(fetches.value == 1)
        #expect(made.contains(true))
    }

    @Test func atMostOneFetchPerInterval() async {
        let clock = TestClock()
        let fetches = Counter()
        let schedule = RefetchSchedule(minimumInterval: .seconds(10), now: { clock.now })
        let fetch: @Sendable () async -> Void = { fetches.add() }
        #expect(await schedule.run(fetch))
        clock.advance(by: 9)
        #expect(await !schedule.run(fetch), "within the interval nothing is fetched")
        clock.advance(by: 1)
        #expect(await schedule.run(fetch))
        #expect(fetches.value == 2)
    }

    @Test func waitingCallersShareTheNextSlot() async {
        let fetches = Counter()
        // The hand clock stands still, so the slot stays 300 ms away by the schedule's clock
        // however long the machine takes; only the wait for it is real.
        let clock = TestClock()
        let schedule = RefetchSchedule(minimumInterval: .milliseconds(300), now: { clock.now })
        let fetch: @Sendable () async -> Void = { fetches.add() }
        #expect(await schedule.run(fetch))
        let start = ContinuousClock.now
        let made = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 { group.addTask { await schedule.run(waitingForNextSlot: true, fetch) } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(made.allSatisfy { $0 }, "every waiting caller saw the next fetch")
        #expect(fetches.value == 2, "one fetch for all of them")
        #expect(ContinuousClock.now - start >= .milliseconds(250), "the fetch waited for its slot")
        #expect(await !schedule.run(fetch), "a caller who does not wait is not made to")
    }
}
