import FleetTokens

/// A kind of Fleet Engine resource an account can be assigned to.
package enum ResourceKind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// An on-demand vehicle; its driver gets driver tokens for it.
    case vehicle
    /// An on-demand trip; its consumer gets consumer tokens for it.
    case trip
    /// A scheduled-tasks delivery vehicle; its driver gets delivery driver tokens for it.
    case deliveryVehicle = "delivery-vehicle"
    /// A shipment's tracking id; its consumer gets delivery consumer tokens for it.
    case trackingID = "tracking-id"

    /// The account roles that may be assigned to this kind of resource, the default first (see
    /// ``AccountRole``'s table): one, but for delivery vehicles, whose drivers are untrusted by
    /// default or trusted.
    package var accountRoles: [AccountRole] { Self.rolesByKind[self] ?? [] }

    /// ``accountRoles`` of every kind, read from the role table once (a token request asks).
    private static let rolesByKind = Dictionary(
        grouping: AccountRole.allCases.compactMap { role in role.resourceKind.map { (kind: $0, role: role) } },
        by: \.kind
    ).mapValues { $0.map(\.role) }

    /// ``accountRoles`` in words, e.g. `delivery-driver or delivery-trusted-driver`.
    package var accountRoleNames: String {
        accountRoles.map(\.rawValue).joined(separator: " or ")
    }

    /// The name of the id in this kind's token route, `/v1/tokens/driver/{vehicleId}`, and in
    /// the browser module's `context`.
    package var tokenRouteParameter: String {
        switch self {
        case .vehicle: "vehicleId"
        case .trip: "tripId"
        case .deliveryVehicle: "deliveryVehicleId"
        case .trackingID: "trackingId"
        }
    }

    /// Words for messages, e.g. `delivery vehicle`.
    package var description: String {
        switch self {
        case .vehicle: "vehicle"
        case .trip: "trip"
        case .deliveryVehicle: "delivery vehicle"
        case .trackingID: "tracking id"
        }
    }
}

/// One resource, e.g. vehicle `v-17`.
package struct Resource: Sendable, Hashable, CustomStringConvertible {
    /// Its kind.
    package let kind: ResourceKind
    /// Its Fleet Engine id.
    package let id: String

    /// The resource of `kind` with `id` (not checked; see ``AccountRules``).
    package init(_ kind: ResourceKind, id: String) {
        self.kind = kind
        self.id = id
    }

    /// `vehicle "v-17"`.
    package var description: String { "\(kind) \"\(id)\"" }
}
