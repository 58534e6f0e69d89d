import ArgumentParser
import FleetTokens

extension FleetEngineRole: ExpressibleByArgument {
    /// Parses a short name (`driver`) or a full role name (`roles/fleetengine.driverSdkUser`).
    public init?(argument: String) {
        self.init(name: argument)
    }

    /// The short names, for `--help`.
    public static var allValueStrings: [String] { allCases.map(\.shortName) }
}
