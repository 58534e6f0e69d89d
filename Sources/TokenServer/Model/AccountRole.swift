import FleetTokens

/// What an account of the token server is, and so which tokens it may ask for.
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

    /// Earlier versions' spellings, still read from the store and taken from the API and the
    /// command line.
    package static let formerSpellings: [String: AccountRole] = ["trusted-delivery-driver": .trustedDeliveryDriver]

    /// The role named `name`, in its spelling or a former one (``formerSpellings``).
    package init?(name: String) {
        guard let role = AccountRole(rawValue: name) ?? Self.formerSpellings[name] else { return nil }
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

    /// The kind of token this role's accounts get for resource `id` (a fleet reader's names none).
    package func tokenKind(id: String) -> TokenKind {
        switch self {
        case .trustedDeliveryDriver: .trustedDeliveryDriver(deliveryVehicleID: id)
        case .driver, .consumer, .deliveryDriver, .deliveryConsumer, .fleetReader:
            resourceKind?.tokenKind(id: id) ?? .fleetReader
        }
    }

    /// The role of the service account whose key signs this account's tokens: the narrowest
    /// Fleet Engine honours for them, from FleetTokens' role table (the id does not change it).
    package var signingRole: FleetEngineRole {
        tokenKind(id: "-").narrowestSigningRole
    }

    /// The kind of resource this role is assigned to, or `nil` for the fleet reader.
    package var resourceKind: ResourceKind? {
        ResourceKind.allCases.first { $0.accountRoles.contains(self) }
    }

    /// The name used in the API and on the command line, e.g. `delivery-driver`.
    package var description: String { rawValue }

    /// The names of every role, for messages.
    static var allNames: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
