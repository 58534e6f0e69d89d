import FleetAuthLocking
import FleetAuthServerHTTP
import FleetAuthServerStorage
import Foundation
import Logging
import NIOPosix

/// Writes the record of token requests (``TokenRecord``) to the store.
///
/// A token is handed out only once its record is written: records are written together, one
/// statement for all that arrived while the last one was written (a group commit), and each
/// request waits for its own. Asked on an event loop, a write starts once that loop has
/// answered every request it had ready, so that their records share it. When the store refuses
/// writes (a full disk, a database away), the records wait in memory, the requests go on, and
/// the writes are tried again every second until they land; none is lost while the process
/// lives. Once ``Settings/bufferLimit`` records
/// of tokens wait, token requests are refused (503) until the store takes them. Refusals are
/// recorded too, without waiting, in a share of their own (as many again), so that a flood of
/// refusals never stops tokens; past it they are dropped and counted. A batch the store refuses
/// for what it holds (not for want of room or a connection) is written one record at a time,
/// and a record it refuses alone is dropped and counted, so that no record blocks the others.
/// Records older than ``Settings/retention`` are pruned now and then. On SQLite the WAL is
/// copied back into the file (a checkpoint, which syncs it) every ``recordsPerCheckpoint``
/// records, mostly beside the writes: a batch waits only for the writer to copy what was
/// committed during that copy, so that the WAL starts over.
package final class TokenRecorder: Sendable {
    /// The settings behind `--record`, `--record-buffer` and `--record-retention`.
    package struct Settings: Sendable, Hashable {
        /// Whether token requests are recorded at all.
        package var isOn: Bool
        /// The most records that may wait in memory while the store refuses writes.
        package var bufferLimit: Int
        /// How long records are kept.
        package var retention: Duration

        /// Settings; the defaults suit production: on, 100,000 records, 30 days.
        package init(isOn: Bool = true, bufferLimit: Int = 100_000, retention: Duration = .seconds(30 * 86_400)) {
            self.isOn = isOn
            self.bufferLimit = bufferLimit
            self.retention = retention
        }
    }

    /// The most records written in one statement.
    static let batchLimit = 500
    /// How long after a refused write it is tried again.
    static let retryInterval = Duration.seconds(1)
    /// How often old records are pruned.
    static let pruneInterval = Duration.seconds(3600)
    /// Records written between two checkpoints of the record's SQLite file, each run beside the
    /// writes rather than by the commit that fills the WAL (some 10,000 pages at full load: a
    /// page that many batches change is copied back once).
    static let recordsPerCheckpoint = 2_000

    private struct Waiting {
        let record: TokenRecord
        /// Whether it is a token's (not a refusal's): those count against the buffer.
        var isToken: Bool { record.outcome == .issued }
        /// Told once the record is written; `nil` once the request went on.
        var written: (@Sendable (Result<Void, any Error>) -> Void)?
    }

    private struct State {
        var waiting: [Waiting] = []
        /// How many of ``waiting`` are tokens' records.
        var tokensWaiting = 0
        var flushing = false
        /// The last write was refused: records wait in memory, requests do not.
        var failing = false
        /// When old records were last pruned, by the server's clock.
        var lastPrune: Date?
        /// Records written since the store last copied them back into its file (or, while one
        /// runs, `nil`).
        var sinceCheckpoint: Int? = 0
    }

    package let settings: Settings
    private let state = Locked(State())
    private let store: TokenServerStore
    private let metrics: TokenServerMetrics
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let ids = TokenRecordIDs()

    init(
        settings: Settings, store: TokenServerStore, metrics: TokenServerMetrics, logger: Logger,
        now: @escaping @Sendable () -> Date
    ) {
        self.settings = settings
        self.store = store
        self.metrics = metrics
        self.logger = logger
        self.now = now
    }

    /// A new record's id and time.
    func stamp() -> (id: String, recordedAt: Int64) {
        let date = now()
        return (ids.next(at: date), Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// Records a token about to be handed out: `written` is called once the record is written
    /// (on the writer's thread), at once while the store refuses writes (the record waits in
    /// memory), or at once with a 503 ``APIError`` when ``Settings/bufferLimit`` tokens'
    /// records wait already.
    func issued(_ record: TokenRecord, written: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        guard settings.isOn else { return written(.success(())) }
        let (answer, flush) = state.withLock { state -> (Bool?, Bool) in
            guard state.tokensWaiting < settings.bufferLimit else { return (false, false) }
            state.tokensWaiting += 1
            state.waiting.append(Waiting(record: record, written: state.failing ? nil : written))
            defer { state.flushing = true }
            return (state.failing ? true : nil, !state.flushing)
        }
        if flush { startFlushing() }
        switch answer {
        case true?: written(.success(()))
        case false?:
            metrics.recordBufferFull()
            written(
                .failure(
                    APIError(
                        .unavailable,
                        "the record of tokens cannot be written and \(settings.bufferLimit) records wait; no token is handed out until they are",
                        retryAfter: DatabaseUnavailable.storageRetryAfter)))
        case nil: break
        }
    }

    /// Records a refusal, without waiting for it to be written; dropped (and counted) when
    /// refusals' share of the buffer is full.
    func refused(_ record: TokenRecord) {
        guard settings.isOn else { return }
        let (kept, flush) = state.withLock { state -> (Bool, Bool) in
            guard state.waiting.count - state.tokensWaiting < settings.bufferLimit else { return (false, false) }
            state.waiting.append(Waiting(record: record, written: nil))
            defer { state.flushing = true }
            return (true, !state.flushing)
        }
        if !kept { metrics.recordsDropped(1) }
        if flush { startFlushing() }
    }

    /// Waits, at most `limit`, for the records waiting to be written and for a checkpoint under
    /// way (a server stopping, whose files close next); logs the records that could not be.
    func finish(within limit: Duration = .seconds(5)) async {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline,
            state.withLock({ !$0.waiting.isEmpty || $0.flushing || $0.sinceCheckpoint == nil })
        {
            try? await Task.sleep(for: .milliseconds(10))
        }
        let lost = state.withLock { $0.waiting.count }
        if lost > 0 {
            logger.error("the server stops with records of tokens not written", metadata: ["records": "\(lost)"])
        }
    }

    /// Starts ``flush()``: called on an event loop, once the loop has read and answered what is
    /// ready now, so that the records of every request it answered meanwhile go in one write.
    private func startFlushing() {
        guard let eventLoop = MultiThreadedEventLoopGroup.currentEventLoop else {
            Task { await self.flush() }
            return
        }
        eventLoop.execute { Task { await self.flush() } }
    }

    /// Writes what waits, a batch at a time, until nothing does.
    private func flush() async {
        while true {
            let (batch, waiting) = state.withLock { state -> ([Waiting], Int) in
                if state.waiting.isEmpty { state.flushing = false }
                return (Array(state.waiting.prefix(Self.batchLimit)), state.waiting.count)
            }
            metrics.recordsWaiting(waiting)
            guard !batch.isEmpty else { return }
            do {
                let dropped = try await write(batch.map(\.record))
                let recovered = state.withLock { state -> Int? in
                    state.waiting.removeFirst(batch.count)
                    state.tokensWaiting -= batch.count(where: \.isToken)
                    defer { state.failing = false }
                    return state.failing ? state.waiting.count : nil
                }
                metrics.recordsWritten(batch.count - dropped)
                if let recovered {
                    logger.notice("the record of tokens is written again", metadata: ["stillWaiting": "\(recovered)"])
                }
                for waiting in batch { waiting.written?(.success(())) }
                checkpointIfDue(written: batch.count)
                pruneIfDue()
            } catch {
                let (requests, first, count) = state.withLock {
                    state -> ([@Sendable (Result<Void, any Error>) -> Void], Bool, Int) in
                    let requests = state.waiting.indices.compactMap {
                        index -> (@Sendable (Result<Void, any Error>) -> Void)? in
                        defer { state.waiting[index].written = nil }
                        return state.waiting[index].written
                    }
                    defer { state.failing = true }
                    return (requests, !state.failing, state.waiting.count)
                }
                metrics.recordWriteFailed()
                if first {
                    logger.error(
                        "the record of tokens cannot be written; records wait in memory and tokens are handed out until the buffer is full",
                        metadata: [
                            "problem":
                                "\((error as? DatabaseUnavailable)?.description ?? String(reflecting: type(of: error)))",
                            "waiting": "\(count)", "bufferLimit": "\(settings.bufferLimit)",
                        ])
                }
                for request in requests { request(.success(())) }
                try? await Task.sleep(for: Self.retryInterval)
            }
        }
    }

    /// Writes `records` in one statement; when the store refuses it for what it holds (not
    /// for want of room or a connection: ``DatabaseUnavailable``), one record at a time,
    /// dropping (logging and counting) each it refuses alone. Returns how many were dropped.
    private func write(_ records: [TokenRecord]) async throws -> Int {
        do {
            try await store.append(records)
            return 0
        } catch let error where !(error is DatabaseUnavailable) && records.count > 1 {
            var dropped = 0
            for record in records { dropped += try await write([record]) }
            return dropped
        } catch  where !(error is DatabaseUnavailable) {
            logger.error(
                "a record of a token request was refused by the database and dropped",
                metadata: [
                    "id": "\(records.first?.id ?? "-")", "errorType": "\(String(reflecting: type(of: error)))",
                ])
            metrics.recordsDropped(records.count)
            return records.count
        }
    }

    /// Has the store copy the record's WAL back into its file, apart, once
    /// ``recordsPerCheckpoint`` records were written since it last did.
    private func checkpointIfDue(written: Int) {
        let due = state.withLock { state -> Bool in
            guard let since = state.sinceCheckpoint.map({ $0 + written }) else { return false }
            state.sinceCheckpoint = since >= Self.recordsPerCheckpoint ? nil : since
            return state.sinceCheckpoint == nil
        }
        guard due else { return }
        Task {
            do {
                if try await store.checkpointRecord() { metrics.recordCheckpointed() }
            } catch {
                logger.warning(
                    "copying the record's WAL back into its file failed; tried again later",
                    metadata: ["errorType": "\(type(of: error))"])
            }
            state.withLock { $0.sinceCheckpoint = 0 }
        }
    }

    /// Prunes records older than the retention, at most once per ``pruneInterval``, apart.
    private func pruneIfDue() {
        let date = now()
        let due = state.withLock { state -> Bool in
            if let last = state.lastPrune, date.timeIntervalSince(last) < Double(Self.pruneInterval.components.seconds)
            {
                return false
            }
            state.lastPrune = date
            return true
        }
        guard due else { return }
        let before = Int64(date.timeIntervalSince1970) - settings.retention.components.seconds
        Task {
            do {
                let pruned = try await store.pruneRecords(before: before)
                if pruned > 0 {
                    logger.info(
                        "pruned the record of tokens", metadata: ["records": "\(pruned)", "before": "\(before)"])
                }
            } catch {
                logger.warning(
                    "pruning the record of tokens failed; tried again later",
                    metadata: ["errorType": "\(type(of: error))"])
                state.withLock { $0.lastPrune = nil }
            }
        }
    }
}
