import FleetEngineProtos
import Foundation
import SwiftProtobuf

/// A resource as the console's map draws it: where it is and what state it is in, and nothing
/// else (a click fetches the whole resource). The live stream sends these for what changed.
struct MapMark: Sendable, Encodable, Equatable {
    /// `vehicle`, `trip`, `deliveryVehicle` or `task`.
    let kind: ResourceKind
    /// The resource's id.
    let id: String
    /// The resource was deleted: the map drops its mark.
    var removed: Bool?
    /// Where a vehicle last reported itself: `[latitude, longitude]`.
    var position: [Double]?
    /// A vehicle's heading, degrees clockwise from north.
    var heading: Int32?
    /// A vehicle's state, a trip's status, or a task's state.
    var state: String?
    /// The vehicle a trip or task is assigned to.
    var vehicle: String?
    /// A trip's pickup point.
    var pickup: [Double]?
    /// A trip's drop-off point.
    var dropoff: [Double]?
    /// A task's planned location.
    var planned: [Double]?
    /// Where a task's outcome was recorded.
    var outcome: [Double]?
    /// A task's outcome (`SUCCEEDED`, `FAILED`).
    var result: String?
    /// A delivery vehicle's remaining stops' planned locations.
    var stops: [[Double]]?

    private init(kind: ResourceKind, id: String) {
        self.kind = kind
        self.id = id
    }

    /// The mark that removes resource `id` of `kind` from the map.
    static func removed(_ kind: ResourceKind, id: String) -> MapMark {
        var mark = MapMark(kind: kind, id: id)
        mark.removed = true
        return mark
    }

    /// A vehicle's mark.
    init(vehicle: Vehicle, id: String) {
        self.init(kind: .vehicle, id: id)
        if vehicle.hasLastLocation { place(at: vehicle.lastLocation) }
        state = Self.name(of: vehicle.vehicleState)
    }

    /// A trip's mark.
    init(trip: Trip, id: String) {
        self.init(kind: .trip, id: id)
        state = Self.name(of: trip.tripStatus)
        vehicle = trip.vehicleID.isEmpty ? nil : trip.vehicleID
        if trip.hasPickupPoint, trip.pickupPoint.hasPoint { pickup = Self.point(trip.pickupPoint.point) }
        if trip.hasDropoffPoint, trip.dropoffPoint.hasPoint { dropoff = Self.point(trip.dropoffPoint.point) }
    }

    /// A delivery vehicle's mark.
    init(deliveryVehicle: DeliveryVehicle, id: String) {
        self.init(kind: .deliveryVehicle, id: id)
        if deliveryVehicle.hasLastLocation { place(at: deliveryVehicle.lastLocation) }
        let stops = deliveryVehicle.remainingVehicleJourneySegments.compactMap { segment in
            segment.stop.plannedLocation.hasPoint ? Self.point(segment.stop.plannedLocation.point) : nil
        }
        self.stops = stops.isEmpty ? nil : stops
    }

    /// A task's mark.
    init(task: DeliveryTask, id: String) {
        self.init(kind: .task, id: id)
        state = Self.name(of: task.state)
        vehicle = task.deliveryVehicleID.isEmpty ? nil : task.deliveryVehicleID
        if task.hasPlannedLocation, task.plannedLocation.hasPoint { planned = Self.point(task.plannedLocation.point) }
        if task.hasTaskOutcomeLocation, task.taskOutcomeLocation.hasPoint {
            outcome = Self.point(task.taskOutcomeLocation.point)
        }
        if task.taskOutcome != .unspecified { result = Self.name(of: task.taskOutcome) }
    }

    /// The mark of what `record` saved.
    init(_ record: ResourceChange) {
        switch record {
        case .vehicle(let id, let vehicle): self.init(vehicle: vehicle, id: id)
        case .trip(let id, let trip): self.init(trip: trip, id: id)
        case .deliveryVehicle(let id, let vehicle): self.init(deliveryVehicle: vehicle, id: id)
        case .task(let id, let task): self.init(task: task, id: id)
        case .deletedVehicle(let id): self = .removed(.vehicle, id: id)
        case .deletedTrip(let id): self = .removed(.trip, id: id)
        case .deletedDeliveryVehicle(let id): self = .removed(.deliveryVehicle, id: id)
        case .deletedTask(let id): self = .removed(.task, id: id)
        }
    }

    /// Puts a vehicle's mark where `location` says, pointing its heading.
    private mutating func place(at location: some ReportedLocation) {
        guard location.hasLocation else { return }
        position = Self.point(location.location)
        if location.hasHeading { heading = location.heading.value }
    }

    private static func point(_ point: LatLng) -> [Double] { [point.latitude, point.longitude] }

    /// An enum value's name as proto3 JSON writes it (`ENROUTE_TO_PICKUP`), from the generated
    /// case name (`enrouteToPickup`).
    private static func name(of value: some SwiftProtobuf.Enum) -> String {
        let swiftName = String(describing: value)
        guard swiftName.allSatisfy({ $0.isLetter || $0.isNumber }) else { return String(value.rawValue) }
        var name = ""
        for character in swiftName {
            if character.isUppercase { name += "_" }
            name += character.uppercased()
        }
        return name
    }
}

/// The kinds of resource the console shows.
enum ResourceKind: String, Sendable, Encodable, CaseIterable {
    case vehicle, trip, deliveryVehicle, task
}

extension ResourceChange {
    /// The kind and id of the resource the record saves or removes.
    var resource: (kind: ResourceKind, id: String) {
        switch self {
        case .vehicle(let id, _), .deletedVehicle(let id): (.vehicle, id)
        case .trip(let id, _), .deletedTrip(let id): (.trip, id)
        case .deliveryVehicle(let id, _), .deletedDeliveryVehicle(let id): (.deliveryVehicle, id)
        case .task(let id, _), .deletedTask(let id): (.task, id)
        }
    }
}
