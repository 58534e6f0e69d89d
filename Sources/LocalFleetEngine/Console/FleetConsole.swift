import FleetAuthLocking
import FleetTokens
import Foundation

/// Everything the console at `/console/` shows, gathered by the engine as it runs: who may open
/// it, the calls through both doors, what changed and where vehicles went, and the doors' ports.
final class FleetConsole: Sendable {
    /// Who may open it.
    let access: ConsoleAccess
    /// The last calls through either door.
    let requests: RequestLog
    /// What changed, for the live stream, and the vehicles' trails, for replay.
    let activity: FleetActivity
    /// The provider served.
    let provider: String
    /// The doors' addresses, once they listen.
    private let doors = Locked<[ConsoleDoor]>([])

    /// A console with `access`, keeping `requestCapacity` calls and `trailCapacity` positions
    /// per vehicle, timed by the engine's `clock`.
    init(
        access: ConsoleAccess, provider: String, clock: @escaping @Sendable () -> Date, requestCapacity: Int = 5_000,
        trailCapacity: Int = 720
    ) {
        self.access = access
        self.provider = provider
        self.requests = RequestLog(capacity: requestCapacity, clock: clock)
        self.activity = FleetActivity(trailCapacity: trailCapacity, clock: clock)
    }

    /// Takes note that door `name` listens at `address`.
    func doorListens(_ name: String, at address: String) {
        doors.withLock { $0.append(ConsoleDoor(name: name, address: address)) }
    }

    /// The doors that listen.
    var listeningDoors: [ConsoleDoor] { doors.withLock { $0 } }
}

/// A door of the engine and where it listens.
struct ConsoleDoor: Sendable, Encodable, Equatable {
    /// `REST` or `gRPC`.
    let name: String
    /// Its address, e.g. `http://127.0.0.1:8081`.
    let address: String
}

/// A trusted account as the console shows it: never key material, only the key ids.
struct ConsoleAccount: Sendable, Encodable, Equatable {
    let email: String
    /// Its role, short (`driver`).
    let role: String
    /// The ids of its public keys.
    let keyIDs: [String]

    init(_ account: TrustedServiceAccount) {
        email = account.email
        role = account.role.shortName
        keyIDs = account.publicKeys.keys.sorted()
    }
}
