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

/// A `ROLE=EMAIL` argument: a Fleet Engine role and the service account that has it.
struct RoleAndAccount {
    let role: FleetEngineRole
    let email: String

    /// Parses `argument` for `option`, with an error that shows the expected form.
    init(_ argument: String, option: String) throws {
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let role = FleetEngineRole(name: parts[0]), parts[1].contains("@") else {
            throw ValidationError(
                "\(option) takes ROLE=EMAIL, e.g. driver=fe-driver@my-fleet.iam.gserviceaccount.com (got \(argument))")
        }
        self.role = role
        self.email = parts[1]
    }
}
