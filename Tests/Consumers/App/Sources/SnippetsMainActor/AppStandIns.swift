// What the docs' snippets (README.md, docs/) take from the app around them, nonisolated as the system's and
// the SDKs' own types are (os.Logger, say).
import FleetEngineClient
import Foundation

/// The app's own login.
nonisolated enum Session {
    static let current = Session.User()

    struct User: Sendable {
        func token() async throws -> String { "session" }
    }
}

/// The app's logger.
nonisolated struct AppLogger: Sendable {
    func debug(_ message: String) {}
}

nonisolated func log(_ event: ReporterEvent) {}

func show(_ status: Trip.Status?) {}

/// The app's error for a request made while nobody is signed in.
nonisolated struct SignedOut: Error {}
