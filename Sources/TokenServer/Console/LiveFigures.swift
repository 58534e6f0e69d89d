import FleetAuthLocking
import Foundation

/// The figures the console's live view shows, counted as the metrics are: tokens issued by
/// kind, refusals by reason, records written and waiting to be written.
/// ``reading`` gives their totals since start; two readings give the rates between them.
package final class LiveFigures: Sendable {
    /// Totals since the server started.
    package struct Reading: Sendable, Equatable {
        /// Tokens issued, by kind (`driver`, `consumer`, …).
        package var issued: [String: Int] = [:]
        /// Requests refused, by ``RefusalReason`` raw value.
        package var refused: [String: Int] = [:]
        /// Records of token requests written since start.
        package var recordsWritten = 0
        /// Records of token requests waiting to be written.
        package var recordsWaiting = 0
    }

    private let totals = Locked(Reading())

    /// The totals now.
    package var reading: Reading { totals.withLock { $0 } }

    /// Counts a token of `kind` handed out.
    func tokenIssued(kind: String) {
        totals.withLock { $0.issued[kind, default: 0] += 1 }
    }

    /// Counts a request refused for `reason`.
    func refused(_ reason: RefusalReason) {
        totals.withLock { $0.refused[reason.rawValue, default: 0] += 1 }
    }

    /// Counts records written.
    func recordsWritten(_ count: Int) {
        totals.withLock { $0.recordsWritten += count }
    }

    /// Sets how many records wait to be written.
    func recordsWaiting(_ count: Int) {
        totals.withLock { $0.recordsWaiting = count }
    }
}
