import FleetAuthLocking
import Foundation

/// The engine's time, which a test may move (`/emulator/v1/clock`): the configured clock,
/// shifted by an offset, or frozen at one moment. Everything the engine judges by time reads it:
/// tokens' `exp`, `iat` and `nbf`, the times stamped on locations, ETAs, staleness, the console.
/// Nothing else on the machine moves.
final class EngineClock: Sendable {
    /// What a test set.
    private struct Setting {
        var offset: TimeInterval = 0
        var frozenAt: Date?
    }

    /// The clock as `GET /emulator/v1/clock` shows it.
    struct Reading: Encodable {
        /// The engine's time, RFC 3339.
        let now: String
        /// How far it is from the configured clock, as a proto3 duration (`"3600s"`).
        let offset: String
        /// Whether it stands still.
        let frozen: Bool
    }

    private let base: @Sendable () -> Date
    private let setting = Locked(Setting())

    /// A clock that follows `base` until a test moves it.
    init(base: @escaping @Sendable () -> Date) {
        self.base = base
    }

    /// The engine's time now.
    func now() -> Date {
        let setting = setting.withLock { $0 }
        return setting.frozenAt ?? base().addingTimeInterval(setting.offset)
    }

    /// The engine's time as a function, for what takes one.
    var function: @Sendable () -> Date { { [self] in now() } }

    /// Moves the time by `seconds` (frozen or not).
    func advance(by seconds: TimeInterval) {
        setting.withLock { setting in
            setting.offset += seconds
            setting.frozenAt = setting.frozenAt?.addingTimeInterval(seconds)
        }
    }

    /// Sets the time to `date` (it runs on from there unless frozen).
    func set(to date: Date) {
        let base = base()
        setting.withLock { setting in
            setting.offset = date.timeIntervalSince(base)
            if setting.frozenAt != nil { setting.frozenAt = date }
        }
    }

    /// Stops the time where it is (`true`), or lets it run on from there (`false`).
    func freeze(_ frozen: Bool) {
        let now = now(), base = base()
        setting.withLock { setting in
            setting.frozenAt = frozen ? now : nil
            setting.offset = now.timeIntervalSince(base)
        }
    }

    /// Back to the configured clock, running.
    func reset() {
        setting.withLock { $0 = Setting() }
    }

    /// The clock now.
    var reading: Reading {
        let setting = setting.withLock { $0 }
        let offset = setting.offset
        let shown = offset == offset.rounded() ? String(Int64(offset)) : String(format: "%.3f", offset)
        return Reading(
            now: now().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)), offset: shown + "s",
            frozen: setting.frozenAt != nil)
    }
}
