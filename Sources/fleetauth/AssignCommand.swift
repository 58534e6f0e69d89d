import ArgumentParser
import TokenServer

extension ResourceKind: ExpressibleByArgument {
    /// `vehicle`, `trip`, `delivery-vehicle` or `tracking-id`.
    public init?(argument: String) {
        self.init(rawValue: argument)
    }
}

/// `fleetauth assign KIND ID USERNAME` / `fleetauth assign KIND ID --remove`.
struct AssignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assign",
        abstract: "Assign a vehicle, trip, delivery vehicle or tracking id to an account, or end the assignment.",
        discussion: """
            A vehicle goes to a driver account, a trip to a consumer, a delivery vehicle to a \
            delivery-driver, a tracking id to a delivery-consumer. Assigning replaces whoever had \
            the resource; --remove stops its tokens at once. 'fleetauth accounts list' shows them.
            """
    )

    @OptionGroup var data: TokenServerDataOptions

    @Argument(help: "vehicle, trip, delivery-vehicle or tracking-id.")
    var kind: ResourceKind

    @Argument(help: "The Fleet Engine id of the resource.")
    var id: String

    @Argument(help: "The account to assign it to.")
    var username: String?

    @Flag(help: "End the resource's assignment instead.")
    var remove = false

    func validate() throws {
        if remove == (username != nil) {
            throw ValidationError(remove ? "--remove takes no username" : "give the USERNAME to assign to, or --remove")
        }
    }

    func run() async throws {
        let resource = Resource(kind, id: id)
        try await data.withStore { store in
            let administration = AccountAdministration(store: store, hasher: PasswordHasher(cost: 4))
            if let username {
                _ = try await administration.assign(resource, to: username)
                print("assigned \(resource) to \(username)")
            } else {
                try await administration.unassign(resource)
                print("\(resource) is assigned to nobody")
            }
        }
    }
}
