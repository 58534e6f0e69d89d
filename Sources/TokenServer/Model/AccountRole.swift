import FleetTokens

/// What an account of the token server is, and so which tokens it may ask for.
///
/// The role table: each role's row in ``row`` says what it is assigned to and the token it
/// gets. Everything else is read from it: each kind of resource's roles
/// (``ResourceKind/accountRoles``), the token routes (``TokenRoute/all``), the signing key
/// (``signingRole``), the command line's and the console's lists. Adding a role is a case and
/// its row here, and a line in the browser module's `KINDS` when it brings a new route
/// (`RoleTableTests` compares the two).
package enum AccountRole: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// A Driver SDK app: driver tokens for the vehicles assigned to it.
    case driver
    /// A Consumer SDK app: consumer tokens for the trips assigned to it.
    case consumer
    /// A delivery driver app: untrusted delivery driver tokens for its delivery vehicles (its
    /// location only, as in Google's sample backend). The default for delivery drivers.
    case deliveryDriver = "delivery-driver"
    /// A delivery driver app trusted with more: trusted delivery driver tokens, with which it
    /// may also report its stops' progress. Assigned to delivery vehicles, as `delivery-driver` is.
    /// Spelled as Fleet Engine's role (`delivery-trusted-driver`), as `mint` and `verify` spell it.
    case trustedDeliveryDriver = "delivery-trusted-driver"
    /// A shipment-tracking app: delivery consumer tokens for its tracking ids.
    case deliveryConsumer = "delivery-consumer"
    /// A trusted fleet dashboard: fleet reader tokens (every id `*`, read only).
    case fleetReader = "fleet-reader"

    /// The role's row of the table: the kind of resource its accounts are assigned to (`nil`:
    /// none, its token names no resource), and the token it gets for resource `id`. The first
    /// role of a kind of resource is its default, and names the kind's token route.
    private var row: (resource: ResourceKind?, token: (_ id: String) -> TokenKind) {
        switch self {
        case .driver: (.vehicle, { .driver(vehicleID: $0) })
        case .consumer: (.trip, { .consumer(tripID: $0) })
        case .deliveryDriver: (.deliveryVehicle, { .untrustedDeliveryDriver(deliveryVehicleID: $0) })
        case .trustedDeliveryDriver: (.deliveryVehicle, { .trustedDeliveryDriver(deliveryVehicleID: $0) })
        case .deliveryConsumer: (.trackingID, { .deliveryConsumer(trackingID: $0) })
        case .fleetReader: (nil, { _ in .fleetReader })
        }
    }

    /// The role named `name`, in its spelling or a former one (``FormerSpellings``).
    package init?(name: String) {
        guard let role = AccountRole(rawValue: FormerSpellings.current(of: name)) else { return nil }
        self = role
    }

    /// Decodes a role by name, a former spelling too.
    package init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let role = AccountRole(name: name) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "unknown role \"\(name)\""))
        }
        self = role
    }

    /// The kind of token this role's accounts get for resource `id` (a role assigned to no
    /// resource ignores it).
    package func tokenKind(id: String) -> TokenKind { row.token(id) }

    /// The role of the service account whose key signs this account's tokens: the narrowest
    /// Fleet Engine honours for them, from FleetTokens' role table (the id does not change it).
    package var signingRole: FleetEngineRole {
        tokenKind(id: "-").narrowestSigningRole
    }

    /// The kind of resource this role is assigned to, or `nil` for a role whose token names none.
    package var resourceKind: ResourceKind? { row.resource }

    /// The name used in the API and on the command line, e.g. `delivery-driver`.
    package var description: String { rawValue }

    /// The names of every role, for messages and help: `driver, consumer, …`.
    package static var allNames: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
