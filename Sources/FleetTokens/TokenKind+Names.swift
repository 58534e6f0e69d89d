extension TokenKind {
    /// Every kind of token but `custom`, by name: the one list ``TokenKind/name`` and the
    /// command line's kinds (`fleetauth mint --kind`) read. A delivery driver's kind is spelled
    /// as Fleet Engine's role for it (`delivery-trusted-driver`).
    package enum Name: String, CaseIterable, Sendable {
        case driver, consumer, server
        case fleetReader = "fleet-reader"
        case deliveryTrustedDriver = "delivery-trusted-driver"
        case deliveryUntrustedDriver = "delivery-untrusted-driver"
        case deliveryConsumer = "delivery-consumer"
        case deliveryConsumerTask = "delivery-consumer-task"
        case deliveryServer = "delivery-server"
    }

    /// The ids a kind of token is scoped to, for saying which one is missing.
    package enum ScopeID: Sendable, Hashable {
        case vehicle, trip, deliveryVehicle, task, tracking
    }

    /// A kind of token named without the id it is scoped to: `needs` lists the ids of which
    /// one must be given.
    package struct MissingID: Error, Sendable {
        package let kind: Name
        package let needs: [ScopeID]
    }

    /// The kind named `name` for the ids `scope` names (as a command line gives them; other
    /// claims are ignored). A delivery consumer follows its tracking id when `scope` has one,
    /// else its task (the `delivery-consumer-task` kind).
    ///
    /// - Throws: ``MissingID`` when `scope` lacks the id the kind is scoped to.
    package init(_ name: Name, scope: AuthorizationClaims) throws(MissingID) {
        func required(_ value: String?, _ id: ScopeID) throws(MissingID) -> String {
            guard let value else { throw MissingID(kind: name, needs: [id]) }
            return value
        }
        switch name {
        case .driver: self = .driver(vehicleID: try required(scope.vehicleID, .vehicle))
        case .consumer: self = .consumer(tripID: try required(scope.tripID, .trip))
        case .server: self = .server
        case .fleetReader: self = .fleetReader
        case .deliveryTrustedDriver:
            self = .trustedDeliveryDriver(
                deliveryVehicleID: try required(scope.deliveryVehicleID, .deliveryVehicle), taskID: scope.taskID)
        case .deliveryUntrustedDriver:
            self = .untrustedDeliveryDriver(deliveryVehicleID: try required(scope.deliveryVehicleID, .deliveryVehicle))
        case .deliveryConsumer:
            if let trackingID = scope.trackingID {
                self = .deliveryConsumer(trackingID: trackingID)
            } else if let taskID = scope.taskID {
                self = .deliveryConsumerTask(taskID: taskID)
            } else {
                throw MissingID(kind: name, needs: [.tracking, .task])
            }
        case .deliveryConsumerTask: self = .deliveryConsumerTask(taskID: try required(scope.taskID, .task))
        case .deliveryServer: self = .deliveryServer
        }
    }

    /// This kind's name, or `nil` for `custom`.
    package var kindName: Name? {
        switch self {
        case .driver: .driver
        case .consumer: .consumer
        case .server: .server
        case .fleetReader: .fleetReader
        case .trustedDeliveryDriver: .deliveryTrustedDriver
        case .untrustedDeliveryDriver: .deliveryUntrustedDriver
        case .deliveryConsumer: .deliveryConsumer
        case .deliveryConsumerTask: .deliveryConsumerTask
        case .deliveryServer: .deliveryServer
        case .custom: nil
        }
    }
}
